-- The vendor console's search (docs/decisions/035-vendor-console-server.md): one box over
-- customers, license keys, nodes, subscriptions and invoices, answered from trigram indexes
-- (ILIKE '%part%' uses them). PGlite loads pg_trgm from @electric-sql/pglite/contrib/pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (("fname" || ' ' || "lname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_company_trgm_idx" ON "users" USING gin ("company" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "licenses_key_trgm_idx" ON "licenses" USING gin ("key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "nodes_fingerprint_trgm_idx" ON "nodes" USING gin ("fingerprint" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "nodes_hostname_trgm_idx" ON "nodes" USING gin ("hostname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscriptions_provider_id_trgm_idx" ON "subscriptions" USING gin ("provider_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_number_trgm_idx" ON "invoices" USING gin ("number" gin_trgm_ops);
