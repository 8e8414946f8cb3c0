/**
 * What the console's browser tests do again and again, through the console's own UI: find a
 * customer with the search box, take an action with its reason, and see it in the staff log.
 */
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { transitionsDone } from './fixtures';

/** The one search box of the top bar. */
export const searchBox = (page: Page) => page.getByRole('searchbox', { name: /Search customers/ });

/**
 * Types `query` in the search box, waits for the result whose option reads `option`, opens it and
 * waits for the customer's page (its heading, `name`).
 */
export async function openFromSearch(page: Page, query: string, option: string | RegExp, name: string) {
  const search = searchBox(page);
  await search.fill(query);
  await page.getByRole('option', { name: option }).first().click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

export type ActionSteps = {
  /** The button that opens the action: a row's "…" menu, or the page's "More actions". */
  opener: Locator;
  /** The menu item to choose, if `opener` opens a menu. */
  item?: string;
  /** The dialog's title. */
  dialog: string;
  reason: string;
  /** Fills the action's own fields (days, nodes, the typed confirmation). */
  fill?: (dialog: Locator) => Promise<void>;
  /** The confirming button (the dialog's title unless told). */
  confirm?: string;
  /** Runs axe on the dialog, filled in, under this name. */
  axe?: string;
};

/** Takes a staff action through its dialog with its reason, and waits for the dialog to close (it worked). */
export async function act(page: Page, steps: ActionSteps) {
  await steps.opener.click();
  if (steps.item) await page.getByRole('menuitem', { name: steps.item, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: steps.dialog });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(steps.reason);
  if (steps.fill) await steps.fill(dialog);
  if (steps.axe) {
    await transitionsDone(page);
    await expectAccessible(page, steps.axe);
  }
  await dialog.getByRole('button', { name: steps.confirm ?? steps.dialog, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The customer page's sections, by their headings. */
export const section = (page: Page, name: 'Subscriptions' | 'Licenses' | 'Nodes' | 'Activity') =>
  page.getByRole('region', { name });

/**
 * The staff-actions tab of the customer page lists the action with its reason, and the customer's
 * own activity shows an entry marked as done by staff; leaves the customer-activity tab open.
 */
export async function expectLogged(page: Page, reason: string) {
  const activity = section(page, 'Activity');
  await activity.getByRole('tab', { name: /Staff actions/ }).click();
  await activity.getByText(`“${reason}”`).waitFor();
  await activity.getByRole('tab', { name: 'Customer activity' }).click();
  await activity.getByText('By staff').first().waitFor();
}
