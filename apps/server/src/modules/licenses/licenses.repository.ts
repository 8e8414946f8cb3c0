import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { licenses, nodes, subscriptions, users, validationDays } from '../../db/schema/index';
import { rowsOf } from '../../db/rows';
import { LAST_SEEN_RESOLUTION_MS } from './license-rules';

export type LicenseRow = typeof licenses.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;

/** What validation reads of a license. */
const validationColumns = {
  key: licenses.key,
  status: licenses.status,
  maxNodes: licenses.maxNodes,
  activeNodes: licenses.activeNodes,
  expiresAt: licenses.expiresAt,
  graceUntil: licenses.graceUntil,
};

/**
 * The hot path of validation as prepared statements: drizzle builds their SQL once, and
 * node-postgres prepares each once per pooled connection (by name). They belong to the database
 * they were made on (not usable inside a transaction), so each service makes its own.
 */
export function prepareValidationQueries(db: Db) {
  const byKey = db
    .select(validationColumns)
    .from(licenses)
    .where(eq(licenses.key, sql.placeholder('key')))
    .limit(1)
    .prepare('licenses_validate_by_key');
  const byKeyAndFingerprint = db
    .select({ ...validationColumns, nodeId: nodes.id })
    .from(licenses)
    .leftJoin(nodes, and(eq(nodes.licenseId, licenses.id), eq(nodes.fingerprint, sql.placeholder('fingerprint'))))
    .where(eq(licenses.key, sql.placeholder('key')))
    .limit(1)
    .prepare('licenses_validate_by_key_fingerprint');
  // What the validation cache loads: a license with its id, its nodes, or one node of a large one.
  const licenseByKey = db
    .select({ id: licenses.id, ...validationColumns })
    .from(licenses)
    .where(eq(licenses.key, sql.placeholder('key')))
    .limit(1)
    .prepare('licenses_cache_by_key');
  const nodesOf = db
    .select({ id: nodes.id, fingerprint: nodes.fingerprint })
    .from(nodes)
    .where(eq(nodes.licenseId, sql.placeholder('licenseId')))
    .prepare('licenses_cache_nodes');
  const nodeOf = db
    .select({ id: nodes.id })
    .from(nodes)
    .where(and(eq(nodes.licenseId, sql.placeholder('licenseId')), eq(nodes.fingerprint, sql.placeholder('fingerprint'))))
    .limit(1)
    .prepare('licenses_cache_node');
  return {
    async licenseByKey(key: string) {
      const [row] = await licenseByKey.execute({ key });
      return row;
    },
    /** Every node of a license: fingerprint and id. */
    nodesOf: (licenseId: string) => nodesOf.execute({ licenseId }),
    /** The id of the node of `fingerprint` on a license, or undefined. */
    async nodeIdOf(licenseId: string, fingerprint: string) {
      const [row] = await nodeOf.execute({ licenseId, fingerprint });
      return row?.id;
    },
    /** The license of `key` and, when a fingerprint is given, the id of its node (null when not activated). */
    async findForValidation(key: string, fingerprint: string | undefined) {
      if (fingerprint === undefined) {
        const [row] = await byKey.execute({ key });
        return row && { ...row, nodeId: null };
      }
      const [row] = await byKeyAndFingerprint.execute({ key, fingerprint });
      return row;
    },
  };
}

/**
 * The owner's views (licenses page, nodes page) as prepared statements, like validation's: they run
 * on every page load. A page and its total come in one round trip (the total is an uncorrelated
 * subquery, evaluated once).
 */
export function prepareOwnerQueries(db: Db) {
  const licensesPage = db
    .select({
      license: licenses,
      providerId: subscriptions.providerId,
      total: sql<number>`(select count(*) from ${licenses} where ${licenses.userId} = ${sql.placeholder('userId')})::int`,
    })
    .from(licenses)
    .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
    .where(eq(licenses.userId, sql.placeholder('userId')))
    .orderBy(desc(licenses.createdAt), desc(licenses.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('licenses_page_for_user');
  const licensesTotal = db
    .select({ n: count() })
    .from(licenses)
    .where(eq(licenses.userId, sql.placeholder('userId')))
    .prepare('licenses_total_for_user');
  const owned = db
    .select()
    .from(licenses)
    .where(and(eq(licenses.key, sql.placeholder('key')), eq(licenses.userId, sql.placeholder('userId'))))
    .limit(1)
    .prepare('licenses_owned');
  const pageIds = db
    .select({ id: nodes.id })
    .from(nodes)
    .where(eq(nodes.licenseId, sql.placeholder('licenseId')))
    .orderBy(asc(nodes.activatedAt), asc(nodes.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
  const nodesPage = db
    .select()
    .from(nodes)
    .where(inArray(nodes.id, pageIds))
    .orderBy(asc(nodes.activatedAt), asc(nodes.id))
    .prepare('nodes_page_of_license');
  return {
    /** One page of the customer's licenses, newest first, with their total. */
    async licensesForUser(userId: string, limit: number, offset: number) {
      const rows = await licensesPage.execute({ userId, limit, offset });
      // Past the last page no row carries the total: count on its own.
      const total = rows[0]?.total ?? (offset > 0 ? ((await licensesTotal.execute({ userId }))[0]?.n ?? 0) : 0);
      return { rows, total };
    },
    /** The customer's license of `key`, or undefined (another customer's is not theirs). */
    async findOwned(userId: string, key: string): Promise<LicenseRow | undefined> {
      const [row] = await owned.execute({ key, userId });
      return row;
    },
    /**
     * One page of a license's nodes, oldest activation first, then id. The page's ids come from the
     * (license_id, activated_at, id) index alone, so a deep page skips index entries rather than
     * table rows; only the page's rows are then read.
     */
    async nodesOfLicense(licenseId: string, limit: number, offset: number): Promise<NodeRow[]> {
      return nodesPage.execute({ licenseId, limit, offset });
    },
  };
}

/** Drizzle queries of the licenses domain; every function takes the caller's transaction or the database. */
export const licensesRepository = {
  async insertLicense(
    tx: Tx,
    values: { key: string; userId: string | null; subscriptionId: string | null; maxNodes: number; expiresAt: Date; now: Date },
  ): Promise<LicenseRow | undefined> {
    const [row] = await tx
      .insert(licenses)
      .values({ ...values, createdAt: values.now, updatedAt: values.now })
      .onConflictDoNothing({ target: licenses.key })
      .returning();
    return row;
  },

  async findByKey(tx: Tx, key: string): Promise<LicenseRow | undefined> {
    const [row] = await tx.select().from(licenses).where(eq(licenses.key, key)).limit(1);
    return row;
  },

  /** Row lock on the license: concurrent activations of one license run one after another. */
  async lockByKey(tx: Tx, key: string): Promise<LicenseRow | undefined> {
    const [row] = await tx.select().from(licenses).where(eq(licenses.key, key)).limit(1).for('update');
    return row;
  },

  /** `findOwned` with the row lock of `lockByKey`: whatever changes a license's nodes locks the license first. */
  async lockOwned(tx: Tx, userId: string, key: string): Promise<LicenseRow | undefined> {
    const [row] = await tx
      .select()
      .from(licenses)
      .where(and(eq(licenses.key, key), eq(licenses.userId, userId)))
      .limit(1)
      .for('update');
    return row;
  },

  async lockBySubscription(tx: Tx, subscriptionId: string): Promise<LicenseRow[]> {
    return tx.select().from(licenses).where(eq(licenses.subscriptionId, subscriptionId)).orderBy(asc(licenses.id)).for('update');
  },

  async lockByUser(tx: Tx, userId: string): Promise<LicenseRow[]> {
    return tx.select().from(licenses).where(eq(licenses.userId, userId)).orderBy(asc(licenses.id)).for('update');
  },

  /** A license only when `userId` owns it: another customer's key reads exactly like an unknown one. */
  async findOwned(tx: Tx, userId: string, key: string): Promise<LicenseRow | undefined> {
    const [row] = await tx
      .select()
      .from(licenses)
      .where(and(eq(licenses.key, key), eq(licenses.userId, userId)))
      .limit(1);
    return row;
  },

  async update(
    tx: Tx,
    id: string,
    values: Partial<
      Pick<LicenseRow, 'maxNodes' | 'expiresAt' | 'graceUntil' | 'status' | 'suspensionMessage' | 'revokedAt' | 'updatedAt'>
    >,
  ) {
    const [row] = await tx.update(licenses).set(values).where(eq(licenses.id, id)).returning();
    return row;
  },

  /**
   * Moves the license's node count by `delta` and answers the new count. Call it in the
   * transaction that inserts or deletes the node, holding the license's row lock.
   */
  async addActiveNodes(tx: Tx, licenseId: string, delta: 1 | -1): Promise<number> {
    const [row] = await tx
      .update(licenses)
      .set({ activeNodes: sql`${licenses.activeNodes} + ${delta}` })
      .where(eq(licenses.id, licenseId))
      .returning({ activeNodes: licenses.activeNodes });
    if (!row) throw new Error(`License ${licenseId} vanished while its nodes changed`);
    return row.activeNodes;
  },

  async findNodeByFingerprint(tx: Tx, licenseId: string, fingerprint: string): Promise<NodeRow | undefined> {
    const [row] = await tx
      .select()
      .from(nodes)
      .where(and(eq(nodes.licenseId, licenseId), eq(nodes.fingerprint, fingerprint)))
      .limit(1);
    return row;
  },

  async insertNode(
    tx: Tx,
    values: { licenseId: string; fingerprint: string; hostname: string | null; now: Date },
  ): Promise<NodeRow> {
    const [row] = await tx
      .insert(nodes)
      .values({
        licenseId: values.licenseId,
        fingerprint: values.fingerprint,
        hostname: values.hostname,
        activatedAt: values.now,
        lastSeenAt: values.now,
      })
      .returning();
    return row!;
  },

  async touchNode(tx: Tx, id: string, values: { hostname: string | null; now: Date }): Promise<NodeRow> {
    const [row] = await tx
      .update(nodes)
      .set({
        lastSeenAt: sql`greatest(${nodes.lastSeenAt}, ${values.now.toISOString()}::timestamptz)`,
        ...(values.hostname ? { hostname: values.hostname } : {}),
      })
      .where(eq(nodes.id, id))
      .returning();
    return row!;
  },

  async deleteNode(tx: Tx, licenseId: string, nodeId: string): Promise<NodeRow | undefined> {
    const [row] = await tx
      .delete(nodes)
      .where(and(eq(nodes.licenseId, licenseId), eq(nodes.id, nodeId)))
      .returning();
    return row;
  },

  /**
   * One statement for a batch of buffered last-seen times (two array parameters, however many
   * rows). A node's time is written only when it moves on by LAST_SEEN_RESOLUTION_MS or more:
   * a fleet that validates every few seconds writes each node once a minute, not at every flush,
   * and a time never moves backwards. Answers, for every node of the batch that still exists, the
   * time it has stored now (written by this statement or not), in seconds since 1970.
   */
  async updateLastSeen(tx: Tx, seen: Array<[nodeId: string, at: Date]>): Promise<Array<{ id: string; at: number }>> {
    if (seen.length === 0) return [];
    // Array literals of uuids and ISO times, which hold no character an array literal quotes.
    const ids = `{${seen.map(([id]) => id).join(',')}}`;
    const ats = `{${seen.map(([, at]) => at.toISOString()).join(',')}}`;
    // The outer select sees the rows as they were before the update: a written row's new time
    // comes from the update's own answer.
    return rowsOf<{ id: string; at: number }>(
      tx,
      sql`with v as (select * from unnest(${ids}::uuid[], ${ats}::timestamptz[]) as v(id, at)),
          written as (
            update nodes set last_seen_at = v.at from v
            where nodes.id = v.id
              and nodes.last_seen_at <= v.at - make_interval(secs => ${LAST_SEEN_RESOLUTION_MS / 1000})
            returning nodes.id, nodes.last_seen_at)
          select n.id, extract(epoch from coalesce(w.last_seen_at, n.last_seen_at))::float8 as at
          from v join nodes n on n.id = v.id left join written w on w.id = n.id`,
    );
  },

  /** Adds counted validations to their days (one statement; other instances add to the same rows). */
  async addValidationCounts(tx: Tx, days: Array<[day: string, counts: { all: number; valid: number }]>) {
    if (days.length === 0) return;
    await tx
      .insert(validationDays)
      .values(days.map(([day, c]) => ({ day, validations: c.all, valid: c.valid })))
      .onConflictDoUpdate({
        target: validationDays.day,
        set: {
          validations: sql`${validationDays.validations} + excluded.validations`,
          valid: sql`${validationDays.valid} + excluded.valid`,
        },
      });
  },

  /** Newest first, then id, so pages never repeat or skip a license. */

  async allNodesOf(tx: Tx, licenseIds: string[]): Promise<NodeRow[]> {
    if (licenseIds.length === 0) return [];
    return tx.select().from(nodes).where(inArray(nodes.licenseId, licenseIds)).orderBy(asc(nodes.activatedAt), asc(nodes.id));
  },

  async allOfUser(tx: Tx, userId: string): Promise<LicenseRow[]> {
    return tx.select().from(licenses).where(eq(licenses.userId, userId)).orderBy(desc(licenses.createdAt), desc(licenses.id));
  },

  async keysBySubscription(tx: Tx, subscriptionIds: string[]) {
    if (subscriptionIds.length === 0) return [];
    return tx
      .select({ subscriptionId: licenses.subscriptionId, key: licenses.key })
      .from(licenses)
      .where(inArray(licenses.subscriptionId, subscriptionIds))
      .orderBy(asc(licenses.createdAt), asc(licenses.id));
  },

  /** Every license with its owner's e-mail, for the vendor's command line. */
  async listAll(tx: Tx, email: string | undefined) {
    return tx
      .select({ license: licenses, email: users.email, providerId: subscriptions.providerId })
      .from(licenses)
      .leftJoin(users, eq(users.id, licenses.userId))
      .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
      .where(email === undefined ? undefined : sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .orderBy(desc(licenses.createdAt), desc(licenses.id));
  },

  async userEmail(tx: Tx, userId: string | null): Promise<string | null> {
    if (!userId) return null;
    const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    return row?.email ?? null;
  },
};
export type ValidationQueries = ReturnType<typeof prepareValidationQueries>;
/** What validation knows of a license: its state and, for a fingerprint, the node's id (null when not activated). */
export type ValidationRow = NonNullable<Awaited<ReturnType<ValidationQueries['findForValidation']>>>;
