import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../test/render';
import { ErrorDisplay } from './error-display';

describe('ErrorDisplay', () => {
  it("shows 'Error: ' and the server's message", () => {
    renderWithStore(
      <ErrorDisplay
        error={{ status: 429, data: { message: 'Too many requests, try again in a minute', code: 'RATE_LIMITED' } }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Error: Too many requests, try again in a minute');
    expect(screen.getByText('Error:')).toBeInTheDocument();
  });

  it("shows 'An unknown error occurred' when there is no message", () => {
    renderWithStore(<ErrorDisplay error={{ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error: An unknown error occurred');
  });

  it('renders nothing without an error', () => {
    renderWithStore(<ErrorDisplay error={undefined} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
