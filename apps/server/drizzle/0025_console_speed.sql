-- The overview's active licenses and their nodes, counted from this index alone (an index-only
-- scan of the unexpired range) instead of a scan of the licenses table (ADR 117).
CREATE INDEX IF NOT EXISTS "licenses_active_expiry_idx" ON "licenses" USING btree ("expires_at") INCLUDE ("active_nodes") WHERE "status" = 'active';
