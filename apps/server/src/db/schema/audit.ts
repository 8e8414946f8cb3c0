import { index, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ACTIVITY_ACTIONS } from '@portal/contract';
import { users } from './users';

/** What an activity log entry records (docs/decisions/116-typed-audit-and-enum-columns.md). */
export const auditEventAction = pgEnum('audit_event_action', ACTIVITY_ACTIONS);

/** Who did what, when; shown to the customer as the activity log. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    action: auditEventAction('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    summary: text('summary').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_events_user_created_idx').on(t.userId, t.createdAt)],
);
