ALTER TABLE "subscriptions" ADD COLUMN "next_payment_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "grace_until" timestamp with time zone;