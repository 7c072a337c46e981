CREATE TABLE "hook_deliveries" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"hook_id" varchar(21) NOT NULL,
	"outbox_id" bigint,
	"event" varchar(64) NOT NULL,
	"payload" jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hook_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "hook_logs" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"hook_id" varchar(21) NOT NULL,
	"delivery_id" varchar(21),
	"event" varchar(64) NOT NULL,
	"attempt" smallint NOT NULL,
	"request" jsonb NOT NULL,
	"response_status" smallint,
	"response_body" text,
	"duration_ms" bigint NOT NULL,
	"error" text,
	"replay_of" varchar(21),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hook_logs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "hooks" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"name" varchar(256) NOT NULL,
	"events" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"signing_key" varchar(64) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hooks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "hook_deliveries" ADD CONSTRAINT "hook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_deliveries" ADD CONSTRAINT "hook_deliveries_tenant_id_hook_id_hooks_tenant_id_id_fk" FOREIGN KEY ("tenant_id","hook_id") REFERENCES "public"."hooks"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_logs" ADD CONSTRAINT "hook_logs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_logs" ADD CONSTRAINT "hook_logs_tenant_id_hook_id_hooks_tenant_id_id_fk" FOREIGN KEY ("tenant_id","hook_id") REFERENCES "public"."hooks"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hooks" ADD CONSTRAINT "hooks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hook_deliveries_outbox" ON "hook_deliveries" USING btree ("tenant_id","hook_id","outbox_id");--> statement-breakpoint
CREATE INDEX "hook_deliveries_due" ON "hook_deliveries" USING btree ("next_attempt_at") WHERE "hook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "hook_logs_hook_created_at" ON "hook_logs" USING btree ("tenant_id","hook_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "hooks_created_at" ON "hooks" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);