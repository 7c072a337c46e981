CREATE TABLE "personal_access_tokens" (
	"tenant_id" varchar(21) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"name" varchar(256) NOT NULL,
	"value_hash" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "personal_access_tokens_name_unique" PRIMARY KEY("tenant_id","user_id","name")
);
--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personal_access_tokens_value_hash" ON "personal_access_tokens" USING btree ("tenant_id","value_hash");--> statement-breakpoint
-- Tenant isolation by the database, as migration 0019 set it up for every tenant table (docs/areas/security.md
-- "Row-level security"). The grant is explicit for an owner whose default privileges were not the ones 0019 set.
GRANT SELECT, INSERT, UPDATE, DELETE ON "personal_access_tokens" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "personal_access_tokens" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));
