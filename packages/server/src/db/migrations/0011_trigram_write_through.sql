-- Trigram GIN indexes write through (fastupdate off): an existing pending list is merged into the index once, here,
-- instead of being read in full by every substring search until the next vacuum. In place: no index is rebuilt.
ALTER INDEX "organizations_id_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"organizations_id_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "organizations_name_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"organizations_name_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "users_id_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"users_id_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "users_username_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"users_username_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "users_primary_email_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"users_primary_email_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "users_primary_phone_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"users_primary_phone_trgm"'::regclass);--> statement-breakpoint
ALTER INDEX "users_name_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('"users_name_trgm"'::regclass);
