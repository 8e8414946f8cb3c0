// One rule, two forms (ADR 121): statusOf (TypeScript) and licenseStatusWhere (the SQL the console's
// lists and overview filter and count with) give every license the same status, at every expiry
// around now and for both stored statuses, and the console's lists and overview answer by them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_STATUSES, ListLicensesQuerySchema, type LicenseStatus } from '@portal/contract';
import { createLists } from '../../console/lists';
import { createOverview } from '../../console/overview';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { licenses, users } from '../../db/schema/index';
import { manualClock } from '../../lib/clock';
import { createTestDatabase } from '../../../test/helpers';
import { LICENSE_NOT_SUSPENDED, LICENSE_SUSPENDED, licenseStatusWhere, statusOf } from './license-rules';

const now = new Date('2026-06-15T12:00:00.000Z');
const clock = manualClock(now);
let database: Database;
type Row = typeof licenses.$inferSelect;
let rows: Row[] = [];

/** Every stored status at every expiry that matters: long gone, just gone, exactly now, just ahead, far ahead. */
const EXPIRIES = [-86_400_000, -1, 0, 1, 86_400_000];

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db.insert(users).values({ email: 'rules@example.com' }).returning();
  let n = 0;
  rows = await database.db
    .insert(licenses)
    .values(
      ([LICENSE_NOT_SUSPENDED, LICENSE_SUSPENDED] as const).flatMap((status) =>
        EXPIRIES.map((offset) => ({
          key: `RULES-${status.toUpperCase()}-${n++}`,
          userId: user!.id,
          status,
          maxNodes: 5,
          activeNodes: n,
          expiresAt: new Date(now.getTime() + offset),
        })),
      ),
    )
    .returning();
});
afterAll(async () => database.close());

const keysWhere = (pick: (r: Row) => boolean) =>
  rows
    .filter(pick)
    .map((r) => r.key)
    .sort();

describe('licenseStatusWhere agrees with statusOf', () => {
  it.each(LICENSE_STATUSES)('selects exactly the %s licenses', async (status: LicenseStatus) => {
    const found = await database.db.select({ key: licenses.key }).from(licenses).where(licenseStatusWhere(status, now));
    expect(found.map((r) => r.key).sort()).toEqual(keysWhere((r) => statusOf(r, now) === status));
    expect(found.length).toBeGreaterThan(0);
  });

  it.each(LICENSE_STATUSES)('selects the %s licenses under another alias too', async (status: LicenseStatus) => {
    const found = await rowsOf<{ key: string }>(
      database.db,
      sql`select l.key from licenses l where ${licenseStatusWhere(status, now, { status: sql`l.status`, expiresAt: sql`l.expires_at` })}`,
    );
    expect(found.map((r) => r.key).sort()).toEqual(keysWhere((r) => statusOf(r, now) === status));
  });

  it('gives every license exactly one status', async () => {
    const [counts] = await rowsOf<Record<string, number>>(
      database.db,
      sql`select ${sql.join(
        LICENSE_STATUSES.map((s) => sql`count(*) filter (where ${licenseStatusWhere(s, now)})::int as ${sql.identifier(s)}`),
        sql`, `,
      )}, count(*)::int as total from licenses`,
    );
    expect(LICENSE_STATUSES.reduce((n, s) => n + Number(counts![s]), 0)).toBe(Number(counts!.total));
  });
});

describe('the console reads license status by the rule', () => {
  const lists = () => createLists({ db: database.db, clock, graceDays: 14 });

  it.each(LICENSE_STATUSES)('lists the %s licenses with that status, and no other', async (status: LicenseStatus) => {
    const page = await lists().listLicenses(ListLicensesQuerySchema.parse({ size: '100', status }));
    expect(page.items.map((l) => l.licenseKey).sort()).toEqual(keysWhere((r) => statusOf(r, now) === status));
    expect(page.total).toBe(page.items.length);
    expect(new Set(page.items.map((l) => l.status))).toEqual(new Set([status]));
  });

  it('lists the licenses expiring within a day as the active ones whose expiry comes within it', async () => {
    const page = await lists().listLicenses(ListLicensesQuerySchema.parse({ size: '100', expiringWithinDays: '1' }));
    expect(page.items.map((l) => l.licenseKey).sort()).toEqual(
      keysWhere((r) => statusOf(r, now) === 'active' && r.expiresAt.getTime() <= now.getTime() + 86_400_000),
    );
  });

  it('counts the active licenses and their nodes on the overview', async () => {
    const overview = await createOverview({ db: database.db, clock, currency: 'usd' }).getOverview();
    const active = rows.filter((r) => statusOf(r, now) === 'active');
    expect(overview.activeLicenses).toBe(active.length);
    expect(overview.activeNodes).toBe(active.reduce((n, r) => n + r.activeNodes, 0));
  });
});
