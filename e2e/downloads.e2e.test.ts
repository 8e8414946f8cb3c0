import { baseUrl, describe, expect, it, screenshot, uniqueEmail } from './fixtures';

describe('download ISO page', () => {
  it('shows the release, copies the checksum and commands, downloads, and issues a new link', async ({ customer }) => {
    const { page, context } = await customer({ email: uniqueEmail('download') });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const info = (await (await context.request.get(`${baseUrl}/api/products/pce/download`)).json()) as {
      filename: string;
      version: string;
      size: number;
      sha256: string;
    };
    await page.goto('/app/download-iso');
    await page.getByText(`Version ${info.version}`).waitFor();
    await page.getByText(info.filename, { exact: true }).waitFor();
    await page.getByText(/^in (\d+ minutes|1 hour) \(/).waitFor();
    expect(await page.getByTestId('sha256').textContent()).toBe(info.sha256);

    await page.getByRole('button', { name: 'Copy checksum' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(info.sha256);
    await page.getByRole('button', { name: 'Copy commands' }).click();
    const commands = await page.evaluate(() => navigator.clipboard.readText());
    expect(commands).toMatch(
      new RegExp(`^curl -C - -o ${info.filename.replaceAll('.', '\\.')} '${baseUrl}/api/products/pce/files/`),
    );
    expect(commands).toContain(`\necho '${info.sha256}  ${info.filename}' | sha256sum -c`);

    const download = page.getByRole('main').getByRole('link', { name: /^Download ISO \(/ });
    const href = (await download.getAttribute('href'))!;
    const file = await context.request.get(href);
    expect(file.status()).toBe(200);
    expect((await file.body()).length).toBe(info.size);
    expect(file.headers()['content-length']).toBe(String(info.size));

    expect(await page.getByRole('link', { name: 'Download ISO', exact: true }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'download-1280');

    await page.getByRole('button', { name: 'New link' }).click();
    await expect.poll(() => download.getAttribute('href')).not.toBe(href);
    const fresh = await context.request.head((await download.getAttribute('href'))!);
    expect(fresh.status()).toBe(200);

    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    // The page with its content, not its skeleton.
    await page.getByRole('heading', { name: 'Installer ISO' }).waitFor();
    await screenshot(page, 'download-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    // The commands keep one line each (never broken inside the URL or the checksum): two lines
    // tall, scrolled sideways; the copy button sits right above them, inside their frame.
    const block = page.getByLabel('Terminal commands');
    const shape = await block.evaluate((el) => {
      const style = getComputedStyle(el);
      const lines =
        (el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight);
      return { whiteSpace: style.whiteSpace, lines: Math.round(lines), scrolls: el.scrollWidth > el.clientWidth };
    });
    expect(shape).toEqual({ whiteSpace: 'pre', lines: 2, scrolls: true });
    const box = (await block.boundingBox())!;
    const copy = (await page.getByRole('button', { name: 'Copy commands' }).boundingBox())!;
    expect(copy.x + copy.width).toBeLessThanOrEqual(box.x + box.width);
    expect(copy.x).toBeGreaterThan(box.x + box.width / 2);
    expect(copy.y + copy.height).toBeLessThanOrEqual(box.y + 1);
    expect(box.y - (copy.y + copy.height)).toBeLessThan(16);
  });
});
