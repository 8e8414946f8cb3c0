import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithStore } from '../test/render';
import { ErrorDisplay } from '@portal/ui';

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
    renderWithStore(<ErrorDisplay error={{ status: 500, data: 'Internal Server Error' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error: An unknown error occurred');
  });

  it('says the portal could not be reached when the request never got an answer', () => {
    renderWithStore(<ErrorDisplay error={{ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Error: Could not reach the portal. Check your connection and try again.',
    );
  });

  it('offers Retry only when it can fetch again, and calls it', async () => {
    const error = { status: 500, data: { message: 'Internal Server Error' } };
    const { unmount } = renderWithStore(<ErrorDisplay error={error} />);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    unmount();
    const onRetry = vi.fn();
    renderWithStore(<ErrorDisplay error={error} onRetry={onRetry} />);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('renders nothing without an error', () => {
    renderWithStore(<ErrorDisplay error={undefined} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
