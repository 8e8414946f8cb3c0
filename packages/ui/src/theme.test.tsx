import { Select } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderInKit } from './test/render';

describe('theme', () => {
  it('puts a select list in the page only while it is open (a kept list is positioned, measuring the page, at every mount)', async () => {
    const user = userEvent.setup();
    renderInKit(<Select label="Country" data={['Germany', 'France']} />);
    expect(screen.queryByRole('listbox', { hidden: true })).toBeNull();

    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(await screen.findByRole('option', { name: 'France' }));
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('France');
    expect(screen.queryByRole('listbox', { hidden: true })).toBeNull();
  });
});
