CREATE TABLE "connectors" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(128) NOT NULL,
	"connector_id" varchar(128) NOT NULL,
	"type" varchar(16) NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sync_profile" boolean DEFAULT false NOT NULL,
	"enable_token_storage" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connectors_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_one_sender_per_type" ON "connectors" USING btree ("tenant_id","type") WHERE "connectors"."type" in ('Email', 'Sms');