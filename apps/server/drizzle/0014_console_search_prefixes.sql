-- The console's search, ranked (docs/decisions/081-console-search-ranked.md): exact and prefix
-- matches come from B-tree indexes on the lower-cased text (text_pattern_ops serves `=` and
-- LIKE 'abc%' whatever the collation); the trigram indexes (0006) only answer substrings, which
-- are looked for when a kind has no exact or prefix match. A trigram index answers a long text
-- made of common trigrams (a hostname's 'bench.example') slowly, a B-tree in a few index pages.
CREATE INDEX IF NOT EXISTS "users_email_prefix_idx" ON "users" (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_prefix_idx" ON "users" (lower("fname" || ' ' || "lname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_company_prefix_idx" ON "users" (lower("company") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "licenses_key_prefix_idx" ON "licenses" ("key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "nodes_fingerprint_prefix_idx" ON "nodes" (lower("fingerprint") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "nodes_hostname_prefix_idx" ON "nodes" (lower("hostname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscriptions_provider_id_prefix_idx" ON "subscriptions" (lower("provider_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_number_prefix_idx" ON "invoices" (lower("number") text_pattern_ops);
