-- The console's rollups (docs/decisions/080-console-rollups-by-triggers.md): the overview's
-- figures and the lists' totals, kept by triggers on the tables that change them, so that no code
-- path (billing, account deletion, the vendor CLI, a hand-written statement) can forget them.
--
-- The triggers are deferred constraint triggers: they run at commit, in the committing
-- transaction, after its own changes; each first takes one transaction-scoped advisory lock, so
-- two commits update the few shared rollup rows one after the other and never deadlock on them.
-- A subscription's part is recomputed from its row as it is at commit (and its card's), and the
-- difference with what it added before (console_subscription_facts) is applied: any number of
-- changes in any order add up to the same figures as a recount (console_rollups_rebuild()).
--
-- Definitions (the overview states them):
--   MRR        every subscription that gives access now (active or past due), including those set
--              to cancel at the period end until they end: unit amount x quantity, a yearly one
--              / 12; stored x 12 (mrr12) so that it is exact in cents.
--   started    a subscription counts from its creation (unless incomplete: it never gave access).
--   ended      a cancelled subscription ends at its period end, or when it was cancelled if that
--              came first (updated_at: the change that ended it): least(current_period_end, updated_at).
--   revenue    paid invoices by the day they were made, less refunds (not credits) by their day.
CREATE FUNCTION "console_rollups_lock"() RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(7263500080)
$$;--> statement-breakpoint
CREATE FUNCTION "console_bump"(counter text, delta bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "console_counters" ("name", "value") SELECT counter, delta WHERE delta <> 0
  ON CONFLICT ("name") DO UPDATE SET "value" = "console_counters"."value" + excluded."value"
$$;--> statement-breakpoint
CREATE FUNCTION "console_bump_day"(d date, new_subs int, churned int, started bigint, ended bigint, rev bigint, failed int)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO "console_days" ("day", "new_subscriptions", "churned_subscriptions", "mrr12_started", "mrr12_ended", "revenue", "failed_payments")
  SELECT d, new_subs, churned, started, ended, rev, failed
   WHERE d IS NOT NULL AND (new_subs <> 0 OR churned <> 0 OR started <> 0 OR ended <> 0 OR rev <> 0 OR failed <> 0)
  ON CONFLICT ("day") DO UPDATE SET
    "new_subscriptions" = "console_days"."new_subscriptions" + excluded."new_subscriptions",
    "churned_subscriptions" = "console_days"."churned_subscriptions" + excluded."churned_subscriptions",
    "mrr12_started" = "console_days"."mrr12_started" + excluded."mrr12_started",
    "mrr12_ended" = "console_days"."mrr12_ended" + excluded."mrr12_ended",
    "revenue" = "console_days"."revenue" + excluded."revenue",
    "failed_payments" = "console_days"."failed_payments" + excluded."failed_payments"
$$;--> statement-breakpoint
-- What subscriptions add, as rows of console_subscription_facts (one definition for the triggers and the recount).
CREATE VIEW "console_subscription_parts" AS
  SELECT s."id" AS "subscription_id", s."status"::text AS "status", s."user_id" IS NOT NULL AS "has_customer",
         CASE WHEN s."status" <> 'incomplete' THEN (s."created_at" AT TIME ZONE 'UTC')::date END AS "start_day",
         CASE WHEN s."status" = 'canceled' THEN (least(s."current_period_end", s."updated_at") AT TIME ZONE 'UTC')::date END AS "end_day",
         s."unit_amount"::bigint * s."quantity" * CASE WHEN s."interval" = 'month' THEN 12 ELSE 1 END AS "mrr12",
         coalesce(s."status" = 'active' AND NOT s."cancel_at_period_end"
                  AND make_timestamptz(pm."exp_year", pm."exp_month", 1, 0, 0, 0, 'UTC') + interval '1 month' <= s."current_period_end",
                  false) AS "card_expiring"
    FROM "subscriptions" s LEFT JOIN "payment_methods" pm ON pm."id" = s."payment_method_id";--> statement-breakpoint
CREATE FUNCTION "console_apply_subscription"(f "console_subscription_facts", sign int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_bump"('subscriptions_active', sign * (f."status" = 'active')::int);
  PERFORM "console_bump"('subscriptions_past_due', sign * (f."status" = 'past_due')::int);
  PERFORM "console_bump"('subscriptions_with_customer', sign * f."has_customer"::int);
  PERFORM "console_bump"('cards_expiring', sign * f."card_expiring"::int);
  PERFORM "console_bump_day"(f."start_day", sign, 0, sign * f."mrr12", 0, 0, 0);
  PERFORM "console_bump_day"(f."end_day", 0, sign, 0, sign * f."mrr12", 0, 0);
END $$;--> statement-breakpoint
CREATE FUNCTION "console_refresh_subscription"(sub uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  was "console_subscription_facts";
  now_is "console_subscription_facts";
BEGIN
  SELECT * INTO was FROM "console_subscription_facts" WHERE "subscription_id" = sub;
  SELECT * INTO now_is FROM "console_subscription_parts" WHERE "subscription_id" = sub;
  IF was IS NOT DISTINCT FROM now_is THEN
    RETURN;
  END IF;
  IF was."subscription_id" IS NOT NULL THEN
    PERFORM "console_apply_subscription"(was, -1);
    DELETE FROM "console_subscription_facts" WHERE "subscription_id" = sub;
  END IF;
  IF now_is."subscription_id" IS NOT NULL THEN
    PERFORM "console_apply_subscription"(now_is, 1);
    INSERT INTO "console_subscription_facts" SELECT now_is.*;
  END IF;
END $$;--> statement-breakpoint
CREATE FUNCTION "console_rollup_subscriptions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  IF TG_OP = 'INSERT' THEN
    PERFORM "console_refresh_subscription"(NEW."id");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "console_refresh_subscription"(OLD."id");
  ELSE
    PERFORM "console_refresh_subscription"(OLD."id");
    IF NEW."id" <> OLD."id" THEN
      PERFORM "console_refresh_subscription"(NEW."id");
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "subscriptions_console_rollups"
  AFTER INSERT OR UPDATE OR DELETE ON "subscriptions" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_subscriptions"();--> statement-breakpoint
CREATE FUNCTION "console_rollup_payment_methods"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  PERFORM "console_refresh_subscription"(s."id") FROM "subscriptions" s
    WHERE s."payment_method_id" = OLD."id" OR s."payment_method_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
-- A card's expiry decides whether the subscriptions it pays for count among "cards expiring".
CREATE CONSTRAINT TRIGGER "payment_methods_console_rollups"
  AFTER UPDATE OF "id", "exp_month", "exp_year" ON "payment_methods" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_payment_methods"();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscriptions_payment_method_idx" ON "subscriptions" ("payment_method_id");--> statement-breakpoint
CREATE FUNCTION "console_rollup_invoices"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  IF TG_OP <> 'INSERT' THEN
    PERFORM "console_bump_day"((OLD."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0,
                               -CASE WHEN OLD."status" = 'paid' THEN OLD."amount_paid" ELSE 0 END, 0);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "console_bump_day"((NEW."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0,
                               CASE WHEN NEW."status" = 'paid' THEN NEW."amount_paid" ELSE 0 END, 0);
  END IF;
  PERFORM "console_bump"('invoices', CASE TG_OP WHEN 'INSERT' THEN 1 WHEN 'DELETE' THEN -1 ELSE 0 END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_console_rollups"
  AFTER INSERT OR UPDATE OR DELETE ON "invoices" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_invoices"();--> statement-breakpoint
CREATE FUNCTION "console_rollup_refunds"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  IF TG_OP <> 'INSERT' THEN
    PERFORM "console_bump_day"((OLD."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0,
                               CASE WHEN OLD."kind" = 'refund' THEN OLD."amount" ELSE 0 END, 0);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "console_bump_day"((NEW."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0,
                               -CASE WHEN NEW."kind" = 'refund' THEN NEW."amount" ELSE 0 END, 0);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoice_refunds_console_rollups"
  AFTER INSERT OR UPDATE OR DELETE ON "invoice_refunds" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_refunds"();--> statement-breakpoint
CREATE FUNCTION "console_rollup_failed_payments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  IF TG_OP = 'INSERT' THEN
    PERFORM "console_bump_day"((NEW."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 1);
  ELSE
    PERFORM "console_bump_day"((OLD."created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, -1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only the one action counts: every other audit event (a node activated, a sign-in) runs no trigger.
CREATE CONSTRAINT TRIGGER "audit_events_console_rollups_insert"
  AFTER INSERT ON "audit_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW."action" = 'subscription_payment_failed') EXECUTE FUNCTION "console_rollup_failed_payments"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "audit_events_console_rollups_delete"
  AFTER DELETE ON "audit_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD."action" = 'subscription_payment_failed') EXECUTE FUNCTION "console_rollup_failed_payments"();--> statement-breakpoint
CREATE FUNCTION "console_rollup_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  PERFORM "console_bump"(TG_ARGV[0], CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_console_rollups"
  AFTER INSERT OR DELETE ON "users" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_count"('customers');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "licenses_console_rollups"
  AFTER INSERT OR DELETE ON "licenses" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "console_rollup_count"('licenses');--> statement-breakpoint
-- The recount: every rollup made again from the tables (the backfill below; a repair by hand).
CREATE FUNCTION "console_rollups_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "console_rollups_lock"();
  DELETE FROM "console_subscription_facts";
  DELETE FROM "console_counters";
  DELETE FROM "console_days";
  INSERT INTO "console_subscription_facts" SELECT * FROM "console_subscription_parts";
  INSERT INTO "console_counters" ("name", "value")
  SELECT v."name", v."value" FROM (VALUES
    ('subscriptions_active', (SELECT count(*) FROM "console_subscription_facts" WHERE "status" = 'active')),
    ('subscriptions_past_due', (SELECT count(*) FROM "console_subscription_facts" WHERE "status" = 'past_due')),
    ('subscriptions_with_customer', (SELECT count(*) FROM "console_subscription_facts" WHERE "has_customer")),
    ('cards_expiring', (SELECT count(*) FROM "console_subscription_facts" WHERE "card_expiring")),
    ('invoices', (SELECT count(*) FROM "invoices")),
    ('customers', (SELECT count(*) FROM "users")),
    ('licenses', (SELECT count(*) FROM "licenses"))
  ) v("name", "value") WHERE v."value" <> 0;
  INSERT INTO "console_days" ("day", "new_subscriptions", "churned_subscriptions", "mrr12_started", "mrr12_ended", "revenue", "failed_payments")
  SELECT d, sum(n)::int, sum(c)::int, sum(ms), sum(me), sum(r), sum(f)::int FROM (
    SELECT "start_day" AS d, 1 AS n, 0 AS c, "mrr12" AS ms, 0::bigint AS me, 0::bigint AS r, 0 AS f
      FROM "console_subscription_facts" WHERE "start_day" IS NOT NULL
    UNION ALL SELECT "end_day", 0, 1, 0, "mrr12", 0, 0 FROM "console_subscription_facts" WHERE "end_day" IS NOT NULL
    UNION ALL SELECT ("created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, "amount_paid", 0 FROM "invoices" WHERE "status" = 'paid'
    UNION ALL SELECT ("created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, -"amount", 0 FROM "invoice_refunds" WHERE "kind" = 'refund'
    UNION ALL SELECT ("created_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 1 FROM "audit_events" WHERE "action" = 'subscription_payment_failed'
  ) parts GROUP BY d;
END $$;--> statement-breakpoint
SELECT "console_rollups_rebuild"();
