-- The console's customer page reads each license's most recently seen nodes from this index (a
-- LATERAL top-N per license, an index-only scan) instead of sorting all of a customer's nodes (ADR 117).
CREATE INDEX IF NOT EXISTS "nodes_license_seen_idx" ON "nodes" USING btree ("license_id", "last_seen_at" DESC) INCLUDE ("id");
--> statement-breakpoint
-- The overview's active licenses and their nodes, counted from this index alone (an index-only
-- scan of the unexpired range) instead of a scan of the licenses table (ADR 117).
CREATE INDEX IF NOT EXISTS "licenses_active_expiry_idx" ON "licenses" USING btree ("expires_at") INCLUDE ("active_nodes") WHERE "status" = 'active';
