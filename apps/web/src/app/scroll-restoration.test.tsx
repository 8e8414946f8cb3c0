import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScrollRestoration } from './scroll-restoration';

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Back
    </button>
  );
}

function scrolledTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('ScrollRestoration', () => {
  const scrollTo = vi.fn();
  beforeEach(() => {
    vi.stubGlobal('scrollTo', scrollTo);
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    scrollTo.mockReset();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });

  it('starts a new page at the top and returns to where the page was on Back', async () => {
    const { getByRole } = render(
      <MemoryRouter initialEntries={['/app/licenses']}>
        <Link to="/app/support">Support</Link>
        <Back />
        <ScrollRestoration />
      </MemoryRouter>,
    );
    scrolledTo(640);
    scrollTo.mockReset();
    await userEvent.click(getByRole('link', { name: 'Support' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    await userEvent.click(getByRole('button', { name: 'Back' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });

  it('keeps the positions for a reload in sessionStorage when the page is left', () => {
    render(
      <MemoryRouter initialEntries={[{ pathname: '/app/licenses', key: 'entry-1' }]}>
        <ScrollRestoration />
      </MemoryRouter>,
    );
    scrolledTo(320);
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(sessionStorage.getItem('portal-scroll-positions')!)).toEqual({ 'entry-1': 320 });
  });

  it('scrolls to the element of the #hash', () => {
    const target = document.createElement('div');
    target.id = 'invoices';
    target.scrollIntoView = vi.fn();
    document.body.append(target);
    render(
      <MemoryRouter initialEntries={['/app/billing#invoices']}>
        <ScrollRestoration />
      </MemoryRouter>,
    );
    expect(target.scrollIntoView).toHaveBeenCalled();
    expect(scrollTo).not.toHaveBeenCalled();
    target.remove();
  });
});
