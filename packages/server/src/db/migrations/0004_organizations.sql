CREATE TABLE "organization_application_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_application_roles_pk" PRIMARY KEY("tenant_id","organization_id","application_id","organization_role_id")
);
--> statement-breakpoint
CREATE TABLE "organization_applications" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_applications_pk" PRIMARY KEY("tenant_id","organization_id","application_id")
);
--> statement-breakpoint
CREATE TABLE "organization_invitation_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"invitation_id" varchar(21) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_invitation_roles_pk" PRIMARY KEY("tenant_id","invitation_id","organization_role_id")
);
--> statement-breakpoint
CREATE TABLE "organization_invitations" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"inviter_id" varchar(12),
	"invitee" varchar(128) NOT NULL,
	"accepted_user_id" varchar(12),
	"organization_id" varchar(32) NOT NULL,
	"status" varchar(32) DEFAULT 'Pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organization_invitations_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "organization_jit_email_domains" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"email_domain" varchar(256) NOT NULL,
	CONSTRAINT "organization_jit_email_domains_pk" PRIMARY KEY("tenant_id","organization_id","email_domain")
);
--> statement-breakpoint
CREATE TABLE "organization_jit_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_jit_roles_pk" PRIMARY KEY("tenant_id","organization_id","organization_role_id")
);
--> statement-breakpoint
CREATE TABLE "organization_role_resource_scopes" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	"scope_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_role_resource_scopes_pk" PRIMARY KEY("tenant_id","organization_role_id","scope_id")
);
--> statement-breakpoint
CREATE TABLE "organization_role_scopes" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	"organization_scope_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_role_scopes_pk" PRIMARY KEY("tenant_id","organization_role_id","organization_scope_id")
);
--> statement-breakpoint
CREATE TABLE "organization_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" varchar(128) NOT NULL,
	"description" varchar(256),
	"type" varchar(32) DEFAULT 'User' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_roles_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "organization_scopes" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" varchar(128) NOT NULL,
	"description" varchar(256),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_scopes_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "organization_user_roles" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"organization_role_id" varchar(21) NOT NULL,
	CONSTRAINT "organization_user_roles_pk" PRIMARY KEY("tenant_id","organization_id","user_id","organization_role_id")
);
--> statement-breakpoint
CREATE TABLE "organization_users" (
	"tenant_id" varchar(21) NOT NULL,
	"organization_id" varchar(32) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_users_pk" PRIMARY KEY("tenant_id","organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(32) NOT NULL,
	"name" varchar(128) NOT NULL,
	"description" varchar(256),
	"custom_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_mfa_required" boolean DEFAULT false NOT NULL,
	"color" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"branding" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_css" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "organization_application_roles" ADD CONSTRAINT "organization_application_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_application_roles" ADD CONSTRAINT "organization_application_roles_organization_applications_fk" FOREIGN KEY ("tenant_id","organization_id","application_id") REFERENCES "public"."organization_applications"("tenant_id","organization_id","application_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_application_roles" ADD CONSTRAINT "organization_application_roles_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_applications" ADD CONSTRAINT "organization_applications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_applications" ADD CONSTRAINT "organization_applications_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_applications" ADD CONSTRAINT "organization_applications_applications_fk" FOREIGN KEY ("tenant_id","application_id") REFERENCES "public"."applications"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitation_roles" ADD CONSTRAINT "organization_invitation_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitation_roles" ADD CONSTRAINT "organization_invitation_roles_organization_invitations_fk" FOREIGN KEY ("tenant_id","invitation_id") REFERENCES "public"."organization_invitations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitation_roles" ADD CONSTRAINT "organization_invitation_roles_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_email_domains" ADD CONSTRAINT "organization_jit_email_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_email_domains" ADD CONSTRAINT "organization_jit_email_domains_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_roles" ADD CONSTRAINT "organization_jit_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_roles" ADD CONSTRAINT "organization_jit_roles_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_jit_roles" ADD CONSTRAINT "organization_jit_roles_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_resource_scopes" ADD CONSTRAINT "organization_role_resource_scopes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_resource_scopes" ADD CONSTRAINT "organization_role_resource_scopes_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_resource_scopes" ADD CONSTRAINT "organization_role_resource_scopes_scopes_fk" FOREIGN KEY ("tenant_id","scope_id") REFERENCES "public"."scopes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_scopes" ADD CONSTRAINT "organization_role_scopes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_scopes" ADD CONSTRAINT "organization_role_scopes_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_role_scopes" ADD CONSTRAINT "organization_role_scopes_organization_scopes_fk" FOREIGN KEY ("tenant_id","organization_scope_id") REFERENCES "public"."organization_scopes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_roles" ADD CONSTRAINT "organization_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_scopes" ADD CONSTRAINT "organization_scopes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_user_roles" ADD CONSTRAINT "organization_user_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_user_roles" ADD CONSTRAINT "organization_user_roles_organization_users_fk" FOREIGN KEY ("tenant_id","organization_id","user_id") REFERENCES "public"."organization_users"("tenant_id","organization_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_user_roles" ADD CONSTRAINT "organization_user_roles_organization_roles_fk" FOREIGN KEY ("tenant_id","organization_role_id") REFERENCES "public"."organization_roles"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_users" ADD CONSTRAINT "organization_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_users" ADD CONSTRAINT "organization_users_organizations_fk" FOREIGN KEY ("tenant_id","organization_id") REFERENCES "public"."organizations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_users" ADD CONSTRAINT "organization_users_users_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_application_roles_role" ON "organization_application_roles" USING btree ("tenant_id","organization_role_id");--> statement-breakpoint
CREATE INDEX "organization_applications_application" ON "organization_applications" USING btree ("tenant_id","application_id");--> statement-breakpoint
CREATE INDEX "organization_invitation_roles_role" ON "organization_invitation_roles" USING btree ("tenant_id","organization_role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invitations_pending_unique" ON "organization_invitations" USING btree ("tenant_id","organization_id",lower("invitee")) WHERE "organization_invitations"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "organization_invitations_invitee" ON "organization_invitations" USING btree ("tenant_id",lower("invitee"));--> statement-breakpoint
CREATE INDEX "organization_invitations_created_at" ON "organization_invitations" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "organization_invitations_organization" ON "organization_invitations" USING btree ("tenant_id","organization_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "organization_jit_email_domains_domain" ON "organization_jit_email_domains" USING btree ("tenant_id","email_domain");--> statement-breakpoint
CREATE INDEX "organization_jit_roles_role" ON "organization_jit_roles" USING btree ("tenant_id","organization_role_id");--> statement-breakpoint
CREATE INDEX "organization_role_resource_scopes_scope" ON "organization_role_resource_scopes" USING btree ("tenant_id","scope_id");--> statement-breakpoint
CREATE INDEX "organization_role_scopes_scope" ON "organization_role_scopes" USING btree ("tenant_id","organization_scope_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_roles_name_unique" ON "organization_roles" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_scopes_name_unique" ON "organization_scopes" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "organization_user_roles_role" ON "organization_user_roles" USING btree ("tenant_id","organization_role_id");--> statement-breakpoint
CREATE INDEX "organization_users_user" ON "organization_users" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "organizations_created_at" ON "organizations" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "organizations_id_trgm" ON "organizations" USING gin ("id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "organizations_name_trgm" ON "organizations" USING gin ("name" gin_trgm_ops);