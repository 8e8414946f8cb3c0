CREATE TABLE "console_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_days" (
	"day" date PRIMARY KEY NOT NULL,
	"new_subscriptions" integer DEFAULT 0 NOT NULL,
	"churned_subscriptions" integer DEFAULT 0 NOT NULL,
	"mrr12_started" bigint DEFAULT 0 NOT NULL,
	"mrr12_ended" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"failed_payments" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_subscription_facts" (
	"subscription_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"has_customer" boolean NOT NULL,
	"start_day" date,
	"end_day" date,
	"mrr12" bigint NOT NULL,
	"card_expiring" boolean NOT NULL
);
