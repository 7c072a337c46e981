CREATE TABLE "saml_application_certificates" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"application_id" varchar(21) NOT NULL,
	"private_key" text NOT NULL,
	"certificate" text NOT NULL,
	"fingerprint_sha256" varchar(128) NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_application_certificates_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "saml_application_certificates" ADD CONSTRAINT "saml_application_certificates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_application_certificates" ADD CONSTRAINT "saml_application_certificates_tenant_id_application_id_applications_tenant_id_id_fk" FOREIGN KEY ("tenant_id","application_id") REFERENCES "public"."applications"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_application_certificates_application" ON "saml_application_certificates" USING btree ("tenant_id","application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saml_application_certificates_one_active" ON "saml_application_certificates" USING btree ("tenant_id","application_id") WHERE "saml_application_certificates"."is_active";