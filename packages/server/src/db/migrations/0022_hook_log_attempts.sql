-- Each webhook attempt keeps how many attempts its delivery was allowed then (1 + the hook's retries), so the recent
-- requests read "attempt 2 of 3", and why an attempt got no answer (timeout, refused…); older attempts have neither.
ALTER TABLE "hook_logs" ADD COLUMN "max_attempts" smallint;--> statement-breakpoint
ALTER TABLE "hook_logs" ADD COLUMN "error_kind" varchar(16);