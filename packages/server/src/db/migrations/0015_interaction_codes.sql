CREATE TABLE "interaction_codes" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"interaction_id" varchar(64) NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"email" varchar(128) NOT NULL,
	"code_hash" text NOT NULL,
	"pending" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interaction_codes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "interaction_codes" ADD CONSTRAINT "interaction_codes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interaction_codes_interaction" ON "interaction_codes" USING btree ("tenant_id","interaction_id","purpose");--> statement-breakpoint
CREATE INDEX "interaction_codes_expires_at" ON "interaction_codes" USING btree ("expires_at");