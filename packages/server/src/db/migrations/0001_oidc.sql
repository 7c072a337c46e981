CREATE TABLE "applications" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" varchar(256) NOT NULL,
	"secret" varchar(64) NOT NULL,
	"description" text,
	"type" varchar(32) NOT NULL,
	"oidc_client_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_client_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_third_party" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "applications_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"role_id" varchar(21) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_roles_tenant_id_application_id_role_id_pk" PRIMARY KEY("tenant_id","application_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "oidc_model_instances" (
	"tenant_id" varchar(21) NOT NULL,
	"model_name" varchar(64) NOT NULL,
	"id" varchar(128) NOT NULL,
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_model_instances_tenant_id_model_name_id_pk" PRIMARY KEY("tenant_id","model_name","id")
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" text NOT NULL,
	"indicator" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"access_token_ttl" bigint DEFAULT 3600 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resources_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "roles_scopes" (
	"tenant_id" varchar(21) NOT NULL,
	"role_id" varchar(21) NOT NULL,
	"scope_id" varchar(21) NOT NULL,
	CONSTRAINT "roles_scopes_tenant_id_role_id_scope_id_pk" PRIMARY KEY("tenant_id","role_id","scope_id")
);
--> statement-breakpoint
CREATE TABLE "scopes" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"resource_id" varchar(21) NOT NULL,
	"name" varchar(256) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scopes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tenant_configs" (
	"tenant_id" varchar(21) NOT NULL,
	"key" varchar(128) NOT NULL,
	"value" jsonb NOT NULL,
	CONSTRAINT "tenant_configs_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications_roles" ADD CONSTRAINT "applications_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications_roles" ADD CONSTRAINT "applications_roles_tenant_id_application_id_applications_tenant_id_id_fk" FOREIGN KEY ("tenant_id","application_id") REFERENCES "public"."applications"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications_roles" ADD CONSTRAINT "applications_roles_tenant_id_role_id_roles_tenant_id_id_fk" FOREIGN KEY ("tenant_id","role_id") REFERENCES "public"."roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_model_instances" ADD CONSTRAINT "oidc_model_instances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles_scopes" ADD CONSTRAINT "roles_scopes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles_scopes" ADD CONSTRAINT "roles_scopes_tenant_id_role_id_roles_tenant_id_id_fk" FOREIGN KEY ("tenant_id","role_id") REFERENCES "public"."roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles_scopes" ADD CONSTRAINT "roles_scopes_tenant_id_scope_id_scopes_tenant_id_id_fk" FOREIGN KEY ("tenant_id","scope_id") REFERENCES "public"."scopes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scopes" ADD CONSTRAINT "scopes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scopes" ADD CONSTRAINT "scopes_tenant_id_resource_id_resources_tenant_id_id_fk" FOREIGN KEY ("tenant_id","resource_id") REFERENCES "public"."resources"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_configs" ADD CONSTRAINT "tenant_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_created_at" ON "applications" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "oidc_model_instances_grant" ON "oidc_model_instances" USING btree ("tenant_id",("payload"->>'grantId'));--> statement-breakpoint
CREATE INDEX "oidc_model_instances_uid" ON "oidc_model_instances" USING btree ("tenant_id","model_name",("payload"->>'uid'));--> statement-breakpoint
CREATE INDEX "oidc_model_instances_user_code" ON "oidc_model_instances" USING btree ("tenant_id","model_name",("payload"->>'userCode'));--> statement-breakpoint
CREATE INDEX "oidc_model_instances_expires_at" ON "oidc_model_instances" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "resources_indicator_unique" ON "resources" USING btree ("tenant_id","indicator");--> statement-breakpoint
CREATE UNIQUE INDEX "scopes_name_unique" ON "scopes" USING btree ("tenant_id","resource_id","name");