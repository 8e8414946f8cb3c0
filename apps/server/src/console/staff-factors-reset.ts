import type { Db } from '../db/client';
import { AppError } from '../lib/errors';
import { staffFactorsRepository as factors } from './staff-factors.repository';
import { staffRepository } from './staff.repository';
import type { StaffActor, StaffService } from './staff.service';

/**
 * Clears a member's factors and recovery codes (a lost phone): their sessions end, they sign in by
 * link again and add a new factor. Audited with the reason. From the console an owner resets
 * someone else only; the vendor's command line may reset anyone (a sole owner locked out).
 */
export async function resetStaffFactors(
  deps: { db: Db; staff: Pick<StaffService, 'record'> },
  id: string,
  actor: StaffActor,
  reason: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await staffRepository.lockStaffTable(tx);
    const row = await staffRepository.findActiveById(tx, id);
    if (!row) throw new AppError('NOT_FOUND', 'This staff member was not found');
    if (actor.id !== null && row.id === actor.id) {
      throw new AppError('CONFLICT', 'Manage your own factors under Security; another owner can reset them for you.');
    }
    const had = (await factors.list(tx, row.id)).map((f) => f.kind);
    await factors.deleteAllOf(tx, row.id);
    await deps.staff.record(tx, actor, { action: 'staff_factors_reset', reason, subject: row.email, data: { factors: had } });
  });
}
