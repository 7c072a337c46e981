CREATE TABLE "application_secrets" (
	"tenant_id" varchar(21) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"name" varchar(256) NOT NULL,
	"value" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "application_secrets_name_unique" PRIMARY KEY("tenant_id","application_id","name")
);
--> statement-breakpoint
CREATE TABLE "saml_application_configs" (
	"tenant_id" varchar(21) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"entity_id" varchar(1024),
	"acs_url" jsonb,
	"attribute_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"name_id_format" varchar(128) DEFAULT 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' NOT NULL,
	"encryption" jsonb,
	CONSTRAINT "saml_application_configs_tenant_id_application_id_pk" PRIMARY KEY("tenant_id","application_id")
);
--> statement-breakpoint
ALTER TABLE "application_secrets" ADD CONSTRAINT "application_secrets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_secrets" ADD CONSTRAINT "application_secrets_tenant_id_application_id_applications_tenant_id_id_fk" FOREIGN KEY ("tenant_id","application_id") REFERENCES "public"."applications"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_application_configs" ADD CONSTRAINT "saml_application_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_application_configs" ADD CONSTRAINT "saml_application_configs_tenant_id_application_id_applications_tenant_id_id_fk" FOREIGN KEY ("tenant_id","application_id") REFERENCES "public"."applications"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saml_application_configs_entity_id_unique" ON "saml_application_configs" USING btree ("tenant_id","entity_id");--> statement-breakpoint
CREATE INDEX "applications_roles_role" ON "applications_roles" USING btree ("tenant_id","role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "resources_default_unique" ON "resources" USING btree ("tenant_id") WHERE "resources"."is_default";--> statement-breakpoint
CREATE INDEX "resources_created_at" ON "resources" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "roles_scopes_scope" ON "roles_scopes" USING btree ("tenant_id","scope_id");--> statement-breakpoint
CREATE INDEX "scopes_resource_created_at" ON "scopes" USING btree ("tenant_id","resource_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);