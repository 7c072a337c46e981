CREATE TABLE "organization_jit_sso_connectors" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"sso_connector_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_jit_sso_connectors_pk" PRIMARY KEY("tenant_id","organization_id","sso_connector_id")
);
--> statement-breakpoint
CREATE TABLE "sso_connectors" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"provider_name" varchar(32) NOT NULL,
	"connector_name" varchar(128) NOT NULL,
	"config" text NOT NULL,
	"domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"branding" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sync_profile" boolean DEFAULT false NOT NULL,
	"enable_token_storage" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_connectors_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_sso_identities" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"sso_connector_id" varchar(21) NOT NULL,
	"issuer" varchar(1024) NOT NULL,
	"identity_id" varchar(512) NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_sso_identities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "organization_jit_sso_connectors" ADD CONSTRAINT "organization_jit_sso_connectors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_sso_connectors" ADD CONSTRAINT "organization_jit_sso_connectors_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_sso_connectors" ADD CONSTRAINT "organization_jit_sso_connectors_sso_connectors_fk" FOREIGN KEY ("tenant_id","sso_connector_id") REFERENCES "public"."sso_connectors"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_connectors" ADD CONSTRAINT "sso_connectors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sso_identities" ADD CONSTRAINT "user_sso_identities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sso_identities" ADD CONSTRAINT "user_sso_identities_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sso_identities" ADD CONSTRAINT "user_sso_identities_sso_connectors_fk" FOREIGN KEY ("tenant_id","sso_connector_id") REFERENCES "public"."sso_connectors"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_jit_sso_connectors_connector" ON "organization_jit_sso_connectors" USING btree ("tenant_id","sso_connector_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_connectors_connector_name_unique" ON "sso_connectors" USING btree ("tenant_id","connector_name");--> statement-breakpoint
CREATE UNIQUE INDEX "user_sso_identities_issuer_identity" ON "user_sso_identities" USING btree ("tenant_id","issuer","identity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_sso_identities_user_connector" ON "user_sso_identities" USING btree ("tenant_id","user_id","sso_connector_id");--> statement-breakpoint
CREATE INDEX "user_sso_identities_connector" ON "user_sso_identities" USING btree ("tenant_id","sso_connector_id");--> statement-breakpoint
-- Tenant isolation by the database, as migration 0019 set it up for every tenant table (docs/areas/security.md
-- "Row-level security").--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "sso_connectors" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "sso_connectors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sso_connectors" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "user_sso_identities" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "user_sso_identities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "user_sso_identities" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "organization_jit_sso_connectors" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "organization_jit_sso_connectors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "organization_jit_sso_connectors" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));
