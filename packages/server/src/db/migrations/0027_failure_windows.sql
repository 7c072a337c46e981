-- Failure counters shared by every server process (services/failure-throttle.ts). UNLOGGED: no WAL for a counter
-- written on every failed attempt; a crash empties the table, which only ends the current windows early.
CREATE UNLOGGED TABLE "failure_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Read and written by the server's own role only: the tenant role (migration 0019's default privileges) has no use
-- for counters that name addresses and other tenants' clients.
REVOKE ALL ON "failure_windows" FROM gatehouse_tenant;
