-- Webhook custom headers move out of "config" into their own column, sealed by the data layer (db/sealed-columns.ts):
-- copied here as plain JSON text, sealed by the start-up pass (db/seal-at-rest.ts).
ALTER TABLE "hooks" ADD COLUMN "headers" text;--> statement-breakpoint
UPDATE "hooks" SET "headers" = coalesce("config"->'headers', '{}'::jsonb)::text, "config" = "config" - 'headers';--> statement-breakpoint
ALTER TABLE "hooks" ALTER COLUMN "headers" SET NOT NULL;
