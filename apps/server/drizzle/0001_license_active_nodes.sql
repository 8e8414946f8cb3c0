ALTER TABLE "licenses" ADD COLUMN "active_nodes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_user_created_idx" ON "invoices" USING btree ("user_id","created_at");--> statement-breakpoint
-- Backfill: every stored node is an active one. From here on the licenses service keeps the count
-- in the transaction that adds or removes a node; instances of an older version must not keep
-- writing nodes once this has run (stop them before, or re-run this statement after, a rolling deploy).
UPDATE "licenses" SET "active_nodes" = "c"."n"
  FROM (SELECT "license_id", count(*)::int AS "n" FROM "nodes" GROUP BY "license_id") AS "c"
  WHERE "c"."license_id" = "licenses"."id";
