import { screen } from '@testing-library/react';
import { IconKey } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { CardHeader, CardHeaderLink } from '@portal/ui';

describe('CardHeader', () => {
  it('shows the title as a heading of the given level with its description', () => {
    renderRoutes([
      {
        path: '/',
        element: (
          <CardHeader icon={<IconKey size={18} />} title="Licenses" description="Keys and nodes" order={3} titleId="lic" />
        ),
      },
    ]);
    const heading = screen.getByRole('heading', { level: 3, name: 'Licenses' });
    expect(heading).toHaveAttribute('id', 'lic');
    expect(screen.getByText('Keys and nodes')).toBeInTheDocument();
  });

  it('defaults to an h2 and renders its action as a button-styled link, not an underlined one', () => {
    renderRoutes([
      { path: '/', element: <CardHeader title="Support" action={<CardHeaderLink to="/app/support">Contacts</CardHeaderLink>} /> },
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Support' })).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Contacts' });
    expect(link).toHaveAttribute('href', '/app/support');
    expect(link.className).toMatch(/mantine-Button-root/);
  });
});
