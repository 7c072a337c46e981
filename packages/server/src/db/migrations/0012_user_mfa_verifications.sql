CREATE TABLE "user_mfa_verifications" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"user_id" varchar(12) NOT NULL,
	"type" varchar(32) NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "user_mfa_verifications_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "user_mfa_verifications" ADD CONSTRAINT "user_mfa_verifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa_verifications" ADD CONSTRAINT "user_mfa_verifications_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_mfa_verifications_user" ON "user_mfa_verifications" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_mfa_verifications_one_per_type" ON "user_mfa_verifications" USING btree ("tenant_id","user_id","type") WHERE "user_mfa_verifications"."type" in ('Totp', 'BackupCode');