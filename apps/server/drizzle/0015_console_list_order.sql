-- The console's lists page through each table in its default order (newest first, then by id, both
-- in one direction) from these indexes, and an export reads every row in batches after the last
-- row's (created_at, id): page 200 reads 4,000 index entries instead of sorting the whole table.
CREATE INDEX IF NOT EXISTS "users_created_idx" ON "users" ("created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscriptions_created_idx" ON "subscriptions" ("created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "licenses_created_idx" ON "licenses" ("created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_created_idx" ON "invoices" ("created_at", "id");
