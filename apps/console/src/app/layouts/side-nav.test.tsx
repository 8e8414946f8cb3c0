import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, staff } from '../../test/render';
import { SideNav } from './side-nav';

const entries = () => screen.getAllByRole('link').map((a) => a.textContent);

describe('SideNav', () => {
  it('shows owners every page, Staff included, and marks the current one', () => {
    renderRoutes([{ path: '*', element: <SideNav /> }], { path: '/customers/abc', as: staff('owner') });
    expect(entries()).toEqual([
      'Overview',
      'Customers',
      'Subscriptions',
      'Licenses',
      'Invoices',
      'Tax report',
      'Audit log',
      'Staff',
      'Security',
      'API tokens',
      'Webhooks',
    ]);
    expect(screen.getByRole('link', { name: 'Customers' })).toHaveAttribute('aria-current', 'page');
  });

  it('hides staff management from support and billing', () => {
    renderRoutes([{ path: '*', element: <SideNav /> }], { path: '/overview', as: staff('billing') });
    expect(entries()).not.toContain('Staff');
    expect(entries()).not.toContain('API tokens');
    expect(entries()).not.toContain('Webhooks');
    expect(entries()).toContain('Tax report');
    expect(screen.getByText('billing@vendor.example')).toBeInTheDocument();
  });
});
