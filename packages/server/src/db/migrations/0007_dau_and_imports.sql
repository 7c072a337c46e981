CREATE TABLE "daily_active_users" (
	"tenant_id" varchar(21) NOT NULL,
	"day" varchar(10) NOT NULL,
	"user_id" varchar(21) NOT NULL,
	CONSTRAINT "daily_active_users_tenant_id_day_user_id_pk" PRIMARY KEY("tenant_id","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_import_jobs" (
	"tenant_id" varchar(21) NOT NULL,
	"id" varchar(21) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"format" varchar(8) NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"processed" bigint DEFAULT 0 NOT NULL,
	"created" bigint DEFAULT 0 NOT NULL,
	"updated" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locked_until" timestamp with time zone,
	"created_by" varchar(21),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "user_import_jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "daily_active_users" ADD CONSTRAINT "daily_active_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_import_jobs" ADD CONSTRAINT "user_import_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_import_jobs_created_at" ON "user_import_jobs" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_import_jobs_pending" ON "user_import_jobs" USING btree ("created_at") WHERE "user_import_jobs"."status" in ('pending', 'running');