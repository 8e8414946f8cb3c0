/**
 * How every headless Chromium of the project starts (browser tests, the web benchmark, the e-mail
 * rendering test): Debian's build, and no first-run, sync, update or background traffic, so a run
 * measures and sees only the pages under test. Plain data, so the server's tests can import it
 * without this workspace's dependencies.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch options for playwright-core's `chromium.launch` or `launchPersistentContext` (a fresh array each call). */
export const chromiumLaunchOptions = () => ({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
