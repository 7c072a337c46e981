ALTER TABLE "application_secrets" ALTER COLUMN "value" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "secret" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "connectors" ALTER COLUMN "config" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "connectors" ALTER COLUMN "config" SET DATA TYPE text USING "config"::text;--> statement-breakpoint
ALTER TABLE "hooks" ALTER COLUMN "signing_key" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "signing_keys" ALTER COLUMN "private_jwk" SET DATA TYPE text USING "private_jwk"::text;--> statement-breakpoint
ALTER TABLE "user_mfa_verifications" ALTER COLUMN "data" SET DATA TYPE text USING "data"::text;
