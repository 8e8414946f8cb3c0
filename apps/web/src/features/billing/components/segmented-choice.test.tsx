import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SegmentedChoice } from './segmented-choice';

function Period() {
  const [value, setValue] = useState<'month' | 'year'>('month');
  return (
    <>
      <span id="period">Billing period</span>
      <SegmentedChoice
        name="period"
        labelledBy="period"
        value={value}
        onChange={setValue}
        data={[
          { value: 'month', label: 'Billed monthly' },
          { value: 'year', label: 'Billed yearly' },
        ]}
      />
      <output>{value}</output>
    </>
  );
}

describe('SegmentedChoice', () => {
  it('is a labelled radio group whose choices are picked by a click on their words or by the arrow keys', async () => {
    render(<Period />);
    const group = screen.getByRole('radiogroup', { name: 'Billing period' });
    const monthly = screen.getByRole('radio', { name: 'Billed monthly' });
    const yearly = screen.getByRole('radio', { name: 'Billed yearly' });
    expect(group).toContainElement(monthly);
    expect(monthly).toBeChecked();

    await userEvent.click(screen.getByText('Billed yearly'));
    expect(yearly).toBeChecked();
    expect(monthly).not.toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('year');

    await userEvent.keyboard('{ArrowLeft}');
    expect(monthly).toBeChecked();
    expect(monthly).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('month');
  });
});
