ALTER TABLE "licenses" ADD COLUMN "suspension_message" text;
