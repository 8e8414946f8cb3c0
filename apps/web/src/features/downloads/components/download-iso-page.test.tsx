import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadInfo } from '@portal/contract';
import { ada, renderRoutes, userState } from '../../../test/render';
import { DownloadIsoPage } from './download-iso-page';
import { fakeFetch } from '@portal/ui/test';

const SHA = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

function link(n: number, expiresInMs: number): DownloadInfo {
  const expiresAt = new Date(Date.now() + expiresInMs).toISOString();
  return {
    url: `http://localhost/api/products/pce/files/pce-2.4.0.iso?expires=${n}&u=u1&sig=sig${n}`,
    expiresAt,
    filename: 'pce-2.4.0.iso',
    version: '2.4.0',
    size: 1_288_490_189,
    sha256: SHA,
    releaseNotesUrl: 'https://docs.example.com/releases/2.4.0',
  };
}

function renderPage(answers: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderRoutes([{ path: '/app/download-iso', element: <DownloadIsoPage /> }], {
    path: '/app/download-iso',
    preloaded: userState(ada),
  });
  return { ...view, fetch };
}

describe('DownloadIsoPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the version, the size in human units, the checksum, the expiry and the download link', async () => {
    const first = link(1, 50 * 60_000);
    renderPage({ 'GET /api/products/pce/download': { status: 200, body: first } });
    expect(await screen.findByText('Version 2.4.0')).toBeInTheDocument();
    // The size in full is written out, not in a tooltip that only a focusable span would show.
    const size = screen.getByText('1.3 GB');
    expect(size).toHaveTextContent(`1.3 GB (${new Intl.NumberFormat().format(1_288_490_189)} bytes)`);
    expect(size).not.toHaveAttribute('tabindex');
    expect(size.querySelector('[tabindex]')).toBeNull();
    expect(screen.getByTestId('sha256')).toHaveTextContent(SHA);
    expect(screen.getByText(/in 50 minutes/)).toBeInTheDocument();
    const download = screen.getByRole('link', { name: /Download ISO \(1\.3 GB\)/ });
    expect(download).toHaveAttribute('href', first.url);
    expect(download).toHaveAttribute('download', 'pce-2.4.0.iso');
    const notes = screen.getByRole('link', { name: /Release notes/ });
    expect(notes).toHaveAttribute('href', 'https://docs.example.com/releases/2.4.0');
    expect(notes).toHaveAttribute('target', '_blank');
    expect(screen.getByLabelText('Terminal commands').textContent).toBe(
      `curl -C - -o pce-2.4.0.iso '${first.url}'\necho '${SHA}  pce-2.4.0.iso' | sha256sum -c`,
    );
  });

  it('copies the checksum and the terminal commands', async () => {
    const user = userEvent.setup();
    const first = link(1, 50 * 60_000);
    renderPage({ 'GET /api/products/pce/download': { status: 200, body: first } });
    await user.click(await screen.findByRole('button', { name: 'Copy checksum' }));
    expect(await navigator.clipboard.readText()).toBe(SHA);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy commands' }));
    expect(await navigator.clipboard.readText()).toMatch(/^curl -C - -o pce-2\.4\.0\.iso '.+'\necho '.+' \| sha256sum -c$/);
  });

  it('puts the copy button on the commands it copies', async () => {
    renderPage({ 'GET /api/products/pce/download': { status: 200, body: link(1, 50 * 60_000) } });
    const block = await screen.findByLabelText('Terminal commands');
    expect(within(block.parentElement!).getByRole('button', { name: 'Copy commands' })).toBeInTheDocument();
  });

  it("asks for a new link with 'New link'", async () => {
    const first = link(1, 50 * 60_000);
    const second = link(2, 60 * 60_000);
    const { fetch } = renderPage({
      'GET /api/products/pce/download': { status: 200, body: first },
      'GET /api/products/pce/download?refresh=true': { status: 200, body: second },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New link' }));
    await waitFor(() => expect(screen.getByRole('link', { name: /Download ISO/ })).toHaveAttribute('href', second.url));
    expect(fetch.calls.map((c) => c.path)).toContain('/api/products/pce/download?refresh=true');
  });

  it('gets a new link by itself when the link expires', async () => {
    const first = link(1, 300);
    const second = link(2, 60 * 60_000);
    const { fetch } = renderPage({
      'GET /api/products/pce/download': { status: 200, body: first },
      'GET /api/products/pce/download?refresh=true': { status: 200, body: second },
    });
    await screen.findByText('Version 2.4.0');
    await waitFor(() => expect(screen.getByRole('link', { name: /Download ISO/ })).toHaveAttribute('href', second.url));
    expect(fetch.calls.filter((c) => c.path.endsWith('refresh=true'))).toHaveLength(1);
    const download = screen.getByRole('link', { name: /Download ISO/ });
    expect(download).not.toHaveAttribute('aria-disabled');
    expect(download).not.toHaveAttribute('tabindex');
  });

  it('disables the download link while the link is expired: no address, no tab stop, announced as disabled', async () => {
    const user = userEvent.setup();
    const expired = link(1, -60_000);
    // The new link is late: the page waits on it with the old one expired.
    renderPage({
      'GET /api/products/pce/download': { status: 200, body: expired },
      'GET /api/products/pce/download?refresh=true': { status: 200, body: link(2, -30_000) },
    });
    expect(await screen.findByText(/Expired, getting a new link/)).toBeInTheDocument();
    const download = screen.getByRole('link', { name: /Download ISO/ });
    expect(download).toHaveAttribute('aria-disabled', 'true');
    expect(download).toHaveAttribute('tabindex', '-1');
    expect(download).toHaveAttribute('data-disabled');
    expect(download).not.toHaveAttribute('href');
    expect(download).not.toHaveAttribute('download');
    // Tab from the top of the page to 'New link', the next control: the download link is not a stop.
    const newLink = screen.getByRole('button', { name: 'New link' });
    const stops: Element[] = [];
    for (let i = 0; i < 10 && document.activeElement !== newLink; i += 1) {
      await user.tab();
      stops.push(document.activeElement!);
    }
    expect(newLink).toHaveFocus();
    expect(stops).not.toContain(download);
  });

  it('says so when no release is available yet', async () => {
    renderPage({
      'GET /api/products/pce/download': {
        status: 404,
        body: { message: 'No PCE release is available for download yet. Please check back later.', code: 'NOT_FOUND' },
      },
    });
    expect(await screen.findByText('No release to download yet')).toBeInTheDocument();
    expect(screen.getByText('No PCE release is available for download yet. Please check back later.')).toBeInTheDocument();
  });

  it("shows the server's error with a way to try again", async () => {
    const { fetch } = renderPage({
      'GET /api/products/pce/download': {
        status: 503,
        body: { message: 'The download is temporarily unavailable. Please try again later.', code: 'SERVICE_UNAVAILABLE' },
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: The download is temporarily unavailable. Please try again later.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch.calls.length).toBe(2));
  });

  it('shows a skeleton while loading', () => {
    renderPage({ 'GET /api/products/pce/download': { status: 200, body: link(1, 60_000) } });
    const busy = screen.getByLabelText('Loading the download');
    expect(within(busy).queryByRole('link')).toBeNull();
  });
});
