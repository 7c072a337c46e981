CREATE TABLE "scim_connections" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" varchar(128) NOT NULL,
	"sso_connector_id" varchar(21) NOT NULL,
	"group_mapping" jsonb NOT NULL,
	"deprovision" varchar(16) NOT NULL,
	"token_hash" varchar(64),
	"token_created_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_connections_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_group_members" (
	"tenant_id" varchar(21) NOT NULL,
	"group_id" varchar(21) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	CONSTRAINT "scim_group_members_tenant_id_group_id_user_id_pk" PRIMARY KEY("tenant_id","group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"connection_id" varchar(21) NOT NULL,
	"display_name" varchar(256) NOT NULL,
	"external_id" varchar(256),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_groups_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_requests" (
	"tenant_id" varchar(21) NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "scim_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection_id" varchar(21) NOT NULL,
	"method" varchar(8) NOT NULL,
	"path" varchar(512) NOT NULL,
	"status" smallint NOT NULL,
	"scim_type" varchar(32),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_requests_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"tenant_id" varchar(21) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"connection_id" varchar(21) NOT NULL,
	"user_name" varchar(256) NOT NULL,
	"external_id" varchar(256),
	"resource" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "scim_users_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "scim_connections" ADD CONSTRAINT "scim_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_connections" ADD CONSTRAINT "scim_connections_sso_connectors_fk" FOREIGN KEY ("tenant_id","sso_connector_id") REFERENCES "public"."sso_connectors"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_scim_groups_fk" FOREIGN KEY ("tenant_id","group_id") REFERENCES "public"."scim_groups"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_scim_users_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."scim_users"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_scim_connections_fk" FOREIGN KEY ("tenant_id","connection_id") REFERENCES "public"."scim_connections"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_requests" ADD CONSTRAINT "scim_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_requests" ADD CONSTRAINT "scim_requests_scim_connections_fk" FOREIGN KEY ("tenant_id","connection_id") REFERENCES "public"."scim_connections"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_scim_connections_fk" FOREIGN KEY ("tenant_id","connection_id") REFERENCES "public"."scim_connections"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_connections_sso_connector_unique" ON "scim_connections" USING btree ("tenant_id","sso_connector_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_connections_token_hash" ON "scim_connections" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE INDEX "scim_group_members_user" ON "scim_group_members" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "scim_groups_created_at" ON "scim_groups" USING btree ("tenant_id","connection_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scim_groups_display_name" ON "scim_groups" USING btree ("tenant_id","connection_id",lower("display_name"));--> statement-breakpoint
CREATE INDEX "scim_requests_connection" ON "scim_requests" USING btree ("tenant_id","connection_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_user_name_unique" ON "scim_users" USING btree ("tenant_id","connection_id",lower("user_name"));--> statement-breakpoint
CREATE INDEX "scim_users_external_id" ON "scim_users" USING btree ("tenant_id","connection_id","external_id");--> statement-breakpoint
CREATE INDEX "scim_users_created_at" ON "scim_users" USING btree ("tenant_id","connection_id","created_at","user_id");;--> statement-breakpoint
-- Tenant isolation by the database, as migration 0019 set it up for every tenant table (docs/areas/security.md
-- "Row-level security"). The grants are explicit for an owner whose default privileges were not the ones 0019 set.
GRANT USAGE, SELECT ON SEQUENCE "scim_requests_id_seq" TO gatehouse_tenant;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_connections" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "scim_connections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scim_connections" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_users" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "scim_users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scim_users" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_groups" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "scim_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scim_groups" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_group_members" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "scim_group_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scim_group_members" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_requests" TO gatehouse_tenant;--> statement-breakpoint
ALTER TABLE "scim_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scim_requests" TO gatehouse_tenant
  USING (tenant_id = current_setting('gatehouse.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('gatehouse.tenant_id', true));
