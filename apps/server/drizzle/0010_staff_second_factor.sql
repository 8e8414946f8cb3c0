CREATE TABLE "staff_challenges" (
	"session_id_hash" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_challenges_session_id_hash_kind_pk" PRIMARY KEY("session_id_hash","kind")
);
--> statement-breakpoint
CREATE TABLE "staff_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" integer,
	"credential_id" text,
	"public_key" text,
	"sign_count" integer,
	"transports" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_session_factors" (
	"session_id_hash" text PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_challenges" ADD CONSTRAINT "staff_challenges_session_id_hash_staff_sessions_id_hash_fk" FOREIGN KEY ("session_id_hash") REFERENCES "public"."staff_sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_factors" ADD CONSTRAINT "staff_factors_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_session_factors" ADD CONSTRAINT "staff_session_factors_session_id_hash_staff_sessions_id_hash_fk" FOREIGN KEY ("session_id_hash") REFERENCES "public"."staff_sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_factors_staff_idx" ON "staff_factors" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_factors_credential_idx" ON "staff_factors" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "staff_recovery_codes_staff_idx" ON "staff_recovery_codes" USING btree ("staff_id");