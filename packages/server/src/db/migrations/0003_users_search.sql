-- pg_trgm: substring search on users uses trigram GIN indexes (PGlite loads the extension from its own package).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "user_counts" (
	"tenant_id" varchar(21) NOT NULL,
	"slot" smallint NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "user_counts_tenant_id_slot_pk" PRIMARY KEY("tenant_id","slot")
);
--> statement-breakpoint
DROP INDEX "applications_created_at";--> statement-breakpoint
DROP INDEX "logs_created_at";--> statement-breakpoint
DROP INDEX "logs_user";--> statement-breakpoint
DROP INDEX "logs_application";--> statement-breakpoint
DROP INDEX "logs_key";--> statement-breakpoint
DROP INDEX "resources_created_at";--> statement-breakpoint
DROP INDEX "roles_created_at";--> statement-breakpoint
DROP INDEX "scopes_resource_created_at";--> statement-breakpoint
DROP INDEX "users_created_at";--> statement-breakpoint
CREATE INDEX "oidc_model_instances_account" ON "oidc_model_instances" USING btree ("tenant_id",("payload"->>'accountId'));--> statement-breakpoint
CREATE INDEX "users_id_trgm" ON "users" USING gin ("id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_primary_email_trgm" ON "users" USING gin ("primary_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_primary_phone_trgm" ON "users" USING gin ("primary_phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_suspended" ON "users" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "users"."is_suspended";--> statement-breakpoint
CREATE INDEX "applications_created_at" ON "applications" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "logs_created_at" ON "logs" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "logs_user" ON "logs" USING btree ("tenant_id","user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "logs_application" ON "logs" USING btree ("tenant_id","application_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "logs_key" ON "logs" USING btree ("tenant_id","key","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "resources_created_at" ON "resources" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "roles_created_at" ON "roles" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "scopes_resource_created_at" ON "scopes" USING btree ("tenant_id","resource_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_created_at" ON "users" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- user_counts: each tenant's number of users, kept by statement triggers (one row change per statement, not per user).
-- A statement adds to one random slot of the tenant, so concurrent sign-ups rarely wait on the same row.
CREATE FUNCTION user_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_counts (tenant_id, slot, count)
  SELECT tenant_id, floor(random() * 16)::smallint, count(*) FROM user_counts_changed GROUP BY tenant_id
  ON CONFLICT (tenant_id, slot) DO UPDATE SET count = user_counts.count + excluded.count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION user_counts_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_counts (tenant_id, slot, count)
  SELECT tenant_id, floor(random() * 16)::smallint, -count(*) FROM user_counts_changed GROUP BY tenant_id
  ON CONFLICT (tenant_id, slot) DO UPDATE SET count = user_counts.count + excluded.count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION user_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS user_counts_changed
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_add();--> statement-breakpoint
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS user_counts_changed
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_subtract();--> statement-breakpoint
CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_reset();--> statement-breakpoint
INSERT INTO user_counts (tenant_id, slot, count) SELECT tenant_id, 0, count(*) FROM users GROUP BY tenant_id;
