CREATE TABLE "staff_api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"role" "staff_role" NOT NULL,
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"created_by" uuid,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "staff_api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "staff_audit" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "staff_api_tokens" ADD CONSTRAINT "staff_api_tokens_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_api_tokens_created_idx" ON "staff_api_tokens" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "staff_api_tokens_creator_idx" ON "staff_api_tokens" USING btree ("created_by");--> statement-breakpoint
ALTER TABLE "staff_audit" ADD CONSTRAINT "staff_audit_token_id_staff_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."staff_api_tokens"("id") ON DELETE set null ON UPDATE no action;