ALTER TABLE "users" ADD COLUMN "primary_phone_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Phones on record were set by admins (the API or imports): their word counts as verification.
UPDATE "users" SET "primary_phone_verified" = true WHERE "primary_phone" IS NOT NULL;
