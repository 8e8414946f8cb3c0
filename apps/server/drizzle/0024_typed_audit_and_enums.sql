-- The staff audit's actions, the activity log's actions and the remaining closed status and kind
-- columns become enums (docs/decisions/116-typed-audit-and-enum-columns.md). `USING col::enum`
-- refuses a row whose value is not in its list: the migration then fails, naming the value, and
-- nothing is changed (it runs in one transaction) rather than a row being lost or rewritten.
CREATE TYPE "public"."audit_event_action" AS ENUM('signed_in', 'identity_linked', 'onboarded', 'profile_updated', 'account_deleted', 'billing_details_updated', 'sign_in_link_sent', 'sessions_ended', 'node_activated', 'node_released', 'license_issued', 'license_resized', 'license_extended', 'license_expired', 'license_revoked', 'license_suspended', 'license_resumed', 'card_added', 'card_removed', 'subscription_created', 'subscription_quantity_changed', 'subscription_interval_changed', 'subscription_renewed', 'subscription_payment_failed', 'subscription_cancelled', 'subscription_reactivated', 'subscription_ended', 'api_token_created', 'api_token_revoked', 'api_token_used', 'invoice_paid', 'invoice_refunded', 'invoice_credited');--> statement-breakpoint
CREATE TYPE "public"."billing_notice_kind" AS ENUM('renewal-upcoming', 'card-expiring', 'payment-failed', 'payment-reminder');--> statement-breakpoint
CREATE TYPE "public"."invoice_status" AS ENUM('draft', 'open', 'paid', 'void', 'uncollectible');--> statement-breakpoint
CREATE TYPE "public"."refund_kind" AS ENUM('refund', 'credit');--> statement-breakpoint
CREATE TYPE "public"."setup_intent_status" AS ENUM('requires_payment_method', 'succeeded');--> statement-breakpoint
CREATE TYPE "public"."license_status" AS ENUM('active', 'suspended');--> statement-breakpoint
CREATE TYPE "public"."staff_audit_action" AS ENUM('suspendLicense', 'resumeLicense', 'extendLicense', 'issueLicense', 'releaseNode', 'sendSignInLink', 'endSessions', 'updateCustomerBillingDetails', 'deleteCustomer', 'cancelAtPeriodEnd', 'reactivateSubscription', 'cancelNow', 'retryPayment', 'refundInvoice', 'creditInvoice', 'exportCustomers', 'exportSubscriptions', 'exportLicenses', 'exportInvoices', 'exportTaxReport', 'webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted', 'webhook_secret_rotated', 'webhook_resent', 'staff_added', 'staff_role_changed', 'staff_removed', 'staff_signed_in', 'staff_factor_added', 'staff_factor_removed', 'staff_factors_reset', 'staff_recovery_codes_renewed', 'staff_second_factor_passed', 'staff_second_factor_failed', 'staff_token_created', 'staff_token_revoked');--> statement-breakpoint
CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivered', 'failed', 'cancelled');--> statement-breakpoint
-- A column named in a trigger's definition (WHEN, UPDATE OF) cannot change type: those triggers
-- (0002, 0013) are dropped here and made again, as they were, once the columns are enums.
DROP TRIGGER "audit_events_console_rollups_insert" ON "audit_events";--> statement-breakpoint
DROP TRIGGER "audit_events_console_rollups_delete" ON "audit_events";--> statement-breakpoint
DROP TRIGGER "licenses_notify_change" ON "licenses";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "action" SET DATA TYPE "public"."audit_event_action" USING "action"::"public"."audit_event_action";--> statement-breakpoint
ALTER TABLE "staff_audit" ALTER COLUMN "action" SET DATA TYPE "public"."staff_audit_action" USING "action"::"public"."staff_audit_action";--> statement-breakpoint
ALTER TABLE "billing_notices" ALTER COLUMN "kind" SET DATA TYPE "public"."billing_notice_kind" USING "kind"::"public"."billing_notice_kind";--> statement-breakpoint
ALTER TABLE "credit_notes" ALTER COLUMN "kind" SET DATA TYPE "public"."refund_kind" USING "kind"::"public"."refund_kind";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "status" SET DATA TYPE "public"."invoice_status" USING "status"::"public"."invoice_status";--> statement-breakpoint
-- The enum says what the check said.
ALTER TABLE "invoice_refunds" DROP CONSTRAINT "invoice_refunds_kind";--> statement-breakpoint
-- A text default cannot be cast to the enum: dropped, the type changed, then set again.
ALTER TABLE "invoice_refunds" ALTER COLUMN "kind" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoice_refunds" ALTER COLUMN "kind" SET DATA TYPE "public"."refund_kind" USING "kind"::"public"."refund_kind";--> statement-breakpoint
ALTER TABLE "invoice_refunds" ALTER COLUMN "kind" SET DEFAULT 'refund';--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "status" SET DATA TYPE "public"."license_status" USING "status"::"public"."license_status";--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "status" SET DEFAULT 'active';--> statement-breakpoint
ALTER TABLE "setup_intents" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "setup_intents" ALTER COLUMN "status" SET DATA TYPE "public"."setup_intent_status" USING "status"::"public"."setup_intent_status";--> statement-breakpoint
ALTER TABLE "setup_intents" ALTER COLUMN "status" SET DEFAULT 'requires_payment_method';--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DATA TYPE "public"."webhook_delivery_status" USING "status"::"public"."webhook_delivery_status";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DEFAULT 'pending';--> statement-breakpoint
-- The rollup functions that read invoices.status and invoice_refunds.kind, made again unchanged: a
-- session that ran one before keeps a plan for the text column until the function is replaced.
CREATE OR REPLACE FUNCTION "console_rollup_invoices"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION "console_rollup_refunds"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE CONSTRAINT TRIGGER "audit_events_console_rollups_insert"
  AFTER INSERT ON "audit_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW."action" = 'subscription_payment_failed') EXECUTE FUNCTION "console_rollup_failed_payments"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "audit_events_console_rollups_delete"
  AFTER DELETE ON "audit_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD."action" = 'subscription_payment_failed') EXECUTE FUNCTION "console_rollup_failed_payments"();--> statement-breakpoint
CREATE TRIGGER "licenses_notify_change"
  AFTER INSERT OR DELETE OR UPDATE OF "key", "status", "max_nodes", "active_nodes", "expires_at" ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "notify_license_changed"();
