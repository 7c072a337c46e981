ALTER TABLE "users" ADD COLUMN "primary_email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing users: an address set by an admin (API, import) counts as verified, as it will from now on; one typed at
-- self-registration does not, unless a password reset by emailed code has proven it since.
UPDATE "users" SET "primary_email_verified" = true
WHERE "primary_email" IS NOT NULL
  AND (
    NOT EXISTS (
      SELECT 1 FROM "logs" WHERE "logs"."tenant_id" = "users"."tenant_id" AND "logs"."user_id" = "users"."id"
        AND "logs"."key" = 'Interaction.Register.Submit' AND "logs"."payload"->>'result' = 'Success'
    )
    OR EXISTS (
      SELECT 1 FROM "logs" WHERE "logs"."tenant_id" = "users"."tenant_id" AND "logs"."user_id" = "users"."id"
        AND "logs"."key" = 'Interaction.ForgotPassword.Submit' AND "logs"."payload"->>'result' = 'Success'
    )
  );
