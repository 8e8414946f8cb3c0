import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/index';

export type UserRow = typeof users.$inferSelect;
type NewUser = typeof users.$inferInsert;
type UserPatch = Partial<Pick<UserRow, 'fname' | 'lname' | 'company' | 'onboarded' | 'picture' | 'identitySubject'>>;

/** The users table: the only place its queries are written. */
export const usersRepository = {
  async findById(db: Tx, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  },
  /** The row locked until the transaction ends, so concurrent changes to it run one after another. */
  async lockById(tx: Tx, id: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update').limit(1);
    return row;
  },
  /** By address, ignoring case (`email` is expected in lower case). */
  async findByEmail(tx: Tx, email: string): Promise<UserRow | undefined> {
    const [row] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    return row;
  },
  async findByIdentity(tx: Tx, identitySubject: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.identitySubject, identitySubject)).limit(1);
    return row;
  },
  async insert(tx: Tx, values: NewUser): Promise<UserRow | undefined> {
    const [row] = await tx.insert(users).values(values).returning();
    return row;
  },
  /** Inserts unless the address has an account already (then changes nothing and answers undefined). */
  async insertIfAbsent(tx: Tx, values: NewUser): Promise<UserRow | undefined> {
    const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
    return row;
  },
  async update(tx: Tx, id: string, patch: UserPatch): Promise<UserRow | undefined> {
    const [row] = await tx.update(users).set(patch).where(eq(users.id, id)).returning();
    return row;
  },
  async delete(tx: Tx, id: string): Promise<void> {
    await tx.delete(users).where(eq(users.id, id));
  },
};
