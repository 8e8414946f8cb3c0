-- The console's subscriptions list filtered by "payment failing" (its order: created_at, id), and
-- the overview's MRR at risk (the facts of failing subscriptions only): few rows, read at once
-- instead of a scan of every subscription (ADR 085).
CREATE INDEX IF NOT EXISTS "subscriptions_past_due_created_idx" ON "subscriptions" ("created_at", "id") WHERE "status" = 'past_due';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "console_subscription_facts_past_due_idx" ON "console_subscription_facts" ("subscription_id") INCLUDE ("mrr12") WHERE "status" = 'past_due';
