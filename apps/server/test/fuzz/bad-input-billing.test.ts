import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';
import { customerWithEverything, setupSecret } from './customers';
import { checkRoute, fuzzedRoutes, type FuzzTarget } from './harness';

/** Bad input to the billing routes on the local engine, against a real subscription, card and invoice. */

let t: TestApp;
let target: FuzzTarget;
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await customerWithEverything(t, 'fuzz-billing@example.com');
  const setupSecrets = [await setupSecret(t, customer.cookie), await setupSecret(t, customer.cookie)];
  target = { t, cookie: customer.cookie, ids: { ...customer.ids, setupSecrets } };
});
afterAll(() => t?.close());

describe.each(fuzzedRoutes('billing'))('%s', (_id, route) => {
  it('answers bad input with a 4xx error shape and changes nothing', () => checkRoute(target, route));
});
