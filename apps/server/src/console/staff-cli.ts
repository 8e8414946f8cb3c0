import { EmailSchema, STAFF_ROLES, StaffRoleSchema, type StaffMember, type StaffRole } from '@portal/contract';
import type { Db } from '../db/client';
import { systemClock } from '../lib/clock';
import { textTable } from '../lib/text-table';
import { resetStaffFactors } from './staff-factors-reset';
import { CLI_ACTOR, createStaffService } from './staff.service';

/** What the staff audit log says of a change made from the command line. */
const CLI_REASON = 'From the vendor command line';

/** `npm run admin -- staff …`: the console's staff from the vendor's command line. */
export const STAFF_USAGE = `  staff add --email <address> --role owner|support|billing
      Let <address> sign in to the vendor console with that role (a removed member comes back).
  staff list
      List the console's staff: address, role, added, last sign-in.
  staff remove --email <address>
      Remove a staff member: their console sessions and sign-in links end at once (the last owner stays).
  staff reset-factors --email <address>
      Clear a member's passkeys, authenticator apps and recovery codes (a lost device, or the only
      owner locked out): their sessions end; they add a new factor at their next sign-in.`;

export type StaffCommand =
  | { kind: 'staff-add'; email: string; role: StaffRole }
  | { kind: 'staff-list' }
  | { kind: 'staff-remove'; email: string }
  | { kind: 'staff-reset-factors'; email: string };

/**
 * The staff command in `action` with its options; `fail` throws the CLI's usage error (exit 2).
 * `values` holds only the options the command line gave.
 */
export function parseStaffCommand(
  action: string | undefined,
  rest: string[],
  values: { email?: string | undefined; role?: string | undefined; [other: string]: unknown },
  fail: (message: string) => never,
): StaffCommand {
  const allow = (allowed: string[]) => {
    const extra = Object.keys(values).filter((k) => values[k] !== undefined && !allowed.includes(k));
    if (extra.length > 0) fail(`staff ${action} does not take --${extra.join(', --')}`);
    if (rest.length > 0) fail(`staff ${action} takes no further arguments, not "${rest.join(' ')}"`);
  };
  const email = () => {
    if (values.email === undefined) fail(`staff ${action} needs --email`);
    const parsed = EmailSchema.safeParse(values.email);
    if (!parsed.success) fail(`--email: ${parsed.error.issues[0]?.message ?? 'not a valid address'} ("${values.email}")`);
    return parsed.data;
  };
  switch (action) {
    case 'add': {
      allow(['email', 'role']);
      const address = email();
      const role = StaffRoleSchema.safeParse(values.role);
      if (!role.success) fail(`staff add needs --role ${STAFF_ROLES.join('|')}${values.role ? `, not "${values.role}"` : ''}`);
      return { kind: 'staff-add', email: address, role: role.data };
    }
    case 'list':
      allow([]);
      return { kind: 'staff-list' };
    case 'remove':
      allow(['email']);
      return { kind: 'staff-remove', email: email() };
    case 'reset-factors':
      allow(['email']);
      return { kind: 'staff-reset-factors', email: email() };
    default:
      return fail(
        action === undefined
          ? 'staff needs a command: add, list, remove or reset-factors'
          : `Unknown command "staff ${action}": use add, list, remove or reset-factors`,
      );
  }
}

function formatStaff(rows: StaffMember[]): string {
  if (rows.length === 0) return 'No staff. Add the first owner with: npm run admin -- staff add --email <address> --role owner';
  const header = ['EMAIL', 'ROLE', 'ADDED', 'LAST SIGN-IN'];
  const day = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '-');
  const lines = rows.map((r) => [r.email, r.role, day(r.createdAt), day(r.lastSignInAt)]);
  return textTable(header, lines);
}

/** Runs a staff command on the server's database; what it prints goes to stdout. */
export async function runStaffCommand(command: StaffCommand, db: Db, print: (line: string) => void): Promise<void> {
  const staff = createStaffService({ db, clock: systemClock });
  switch (command.kind) {
    case 'staff-add': {
      const added = await staff.add(command.email, command.role, CLI_ACTOR, CLI_REASON);
      print(`Added ${added.email} to the console staff as ${added.role}.`);
      return;
    }
    case 'staff-list':
      print(formatStaff(await staff.list()));
      return;
    case 'staff-remove': {
      const member = await staff.findActiveByEmail(command.email);
      if (!member) throw new Error(`${command.email} is not on the console staff`);
      await staff.remove(member.id, CLI_ACTOR, CLI_REASON);
      print(`Removed ${member.email} from the console staff; their sessions and sign-in links have ended.`);
      return;
    }
    case 'staff-reset-factors': {
      const member = await staff.findActiveByEmail(command.email);
      if (!member) throw new Error(`${command.email} is not on the console staff`);
      await resetStaffFactors({ db, staff }, member.id, CLI_ACTOR, CLI_REASON);
      print(`Reset the second factors of ${member.email}; they add a new one at their next sign-in.`);
      return;
    }
  }
}
