CREATE TABLE "billing_details" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text,
	"country" text NOT NULL,
	"line1" text,
	"line2" text,
	"postal_code" text,
	"city" text,
	"region" text,
	"tax_id_type" text,
	"tax_id_value" text,
	"tax_id_status" text,
	"tax_id_checked_at" timestamp with time zone,
	"tax_id_verified_name" text,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_details_tax_id_whole" CHECK (("billing_details"."tax_id_type" is null) = ("billing_details"."tax_id_value" is null) and ("billing_details"."tax_id_type" is null) = ("billing_details"."tax_id_status" is null)),
	CONSTRAINT "billing_details_tax_id_status" CHECK ("billing_details"."tax_id_status" in ('unchecked', 'pending', 'valid', 'invalid'))
);
--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;