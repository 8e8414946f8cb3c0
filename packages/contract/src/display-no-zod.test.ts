import { expect, it, vi } from 'vitest';

// The web app's first chunk uses some of display.ts's rules: a schema built when it loads would put
// zod into that chunk (about 20 KB of the sign-in page). Rules on schemas go to display-forms.ts.
vi.mock('zod', () => {
  throw new Error('display.ts loaded zod');
});

it('display.ts loads without zod', async () => {
  await expect(import('./display')).resolves.toHaveProperty('displayName');
});

it('the status display rules and the formats load without zod', async () => {
  await expect(import('./status-display')).resolves.toHaveProperty('subscriptionState');
  await expect(import('./format')).resolves.toHaveProperty('formatMoney');
  await expect(import('./usage')).resolves.toHaveProperty('usageLevel');
});

it("a license key's shape and check character load without zod", async () => {
  await expect(import('./license-key')).resolves.toHaveProperty('wellFormedLicenseKey');
});

it("the billing details' plain rules and the node count's check load without zod (the billing page renders before its validation code arrives, ADR 140)", async () => {
  await expect(import('./billing-details-rules')).resolves.toHaveProperty('countryOptions');
  await expect(import('./quantity')).resolves.toHaveProperty('quantityProblem');
});
