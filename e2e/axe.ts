import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { HANG_GUARD_MS, transitionsDone, WCAG_TAGS } from './fixtures';

/**
 * axe-core on a page as it stands, for the portal's and the console's browser tests: WCAG 2.0, 2.1
 * and 2.2 A and AA rules, no violation allowed, once nothing is loading and no transition runs.
 */

type Finding = { id: string; impact: string | null | undefined; help: string; targets: string[] };

/** Skeletons and spinners: marked busy, or labelled 'Loading …' in the page or a dialog (not the route progress bar). */
const BUSY = '[aria-busy="true"], main [aria-label^="Loading"], [role="dialog"] [aria-label^="Loading"]';

/** Nothing is loading in the page any more. */
async function loaded(page: Page) {
  await expect
    .poll(() => page.evaluate((busy) => document.querySelectorAll(busy).length, BUSY), {
      timeout: HANG_GUARD_MS,
    })
    .toBe(0);
}

/** Starts counting the transitions and animations that start in the page from now on. */
const watchMotion = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { motionStarted?: number; motionWatched?: boolean };
    w.motionStarted = 0;
    if (w.motionWatched) return;
    w.motionWatched = true;
    const count = () => void (w.motionStarted = (w.motionStarted ?? 0) + 1);
    document.addEventListener('transitionstart', count, true);
    document.addEventListener('animationstart', count, true);
  });
const motionStarted = (page: Page) => page.evaluate(() => (window as unknown as { motionStarted?: number }).motionStarted ?? 0);

/**
 * axe on the page once it is still. A run during which something started to move (a toast that
 * closes by itself, on a busy machine while axe is still reading the page) can see colours half
 * faded; it is run again on the page still once more, and only a still page's findings count.
 */
async function analyzeStill(page: Page) {
  for (let attempt = 1; ; attempt++) {
    await transitionsDone(page);
    await watchMotion(page);
    const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    if (result.violations.length === 0 || attempt >= 3 || (await motionStarted(page)) === 0) return result;
  }
}

/** Runs axe on the page as it is now and expects no violation; prints what it found first. */
export async function expectAccessible(page: Page, where: string) {
  await loaded(page);
  const { violations } = await analyzeStill(page);
  const findings: Finding[] = violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.map(String).join(' >> ')),
  }));
  if (violations.length > 0) {
    const report = violations
      .map(
        (v) =>
          `  ${v.id} (${v.impact}): ${v.help}\n` +
          v.nodes
            .map(
              (n) => `    - ${n.target.map(String).join(' >> ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
            )
            .join('\n'),
      )
      .join('\n');
    console.error(`axe violations on ${where}:\n${report}`);
  }
  expect(findings, where).toEqual([]);
}
