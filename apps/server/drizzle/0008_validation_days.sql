CREATE TABLE "validation_days" (
	"day" date PRIMARY KEY NOT NULL,
	"validations" bigint DEFAULT 0 NOT NULL,
	"valid" bigint DEFAULT 0 NOT NULL
);
