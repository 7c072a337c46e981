import { z } from 'zod';

/** The user fields (spec §3) an import can set from a file column. */
export const userImportFields = [
  'username',
  'primaryEmail',
  'primaryPhone',
  'name',
  'avatar',
  'customData',
  'password',
  'passwordDigest',
  'passwordAlgorithm',
] as const;
export type UserImportField = (typeof userImportFields)[number];

export const userImportFormats = ['csv', 'json'] as const;
export type UserImportFormat = (typeof userImportFormats)[number];
export const userImportStatuses = ['pending', 'running', 'succeeded', 'failed'] as const;

/** Largest import file (about 300,000 users of a typical CSV). */
export const USER_IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** A job keeps this many row errors; `failed` still counts every failed row. */
export const USER_IMPORT_MAX_ERRORS = 1000;

/** POST /users/imports: the file's text, its format, which column fills which user field, and whether to only check. */
export const userImportCreateSchema = z.strictObject({
  format: z.enum(userImportFormats),
  source: z.string().min(1).max(USER_IMPORT_MAX_BYTES),
  mapping: z.record(z.string().min(1).max(256), z.enum(userImportFields)).optional().meta({
    description:
      'File column → user field. Without it, columns named like a user field (username, primaryEmail, …) are used.',
  }),
  dryRun: z.boolean().optional(),
});
export type UserImportCreate = z.infer<typeof userImportCreateSchema>;

/** One failed row: its line (CSV: the file line, the header being 1; JSON: the item's position, from 1). */
export const userImportErrorSchema = z.object({
  line: z.number().int(),
  field: z.string(),
  code: z.string(),
  message: z.string(),
});
export type UserImportError = z.infer<typeof userImportErrorSchema>;

export const userImportJobSchema = z.object({
  id: z.string(),
  status: z.enum(userImportStatuses),
  format: z.enum(userImportFormats),
  dryRun: z.boolean(),
  mapping: z.record(z.string(), z.string()),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Rows that matched a user and changed nothing (a re-run of the same file). */
  unchanged: z.number().int(),
  failed: z.number().int(),
  /** Present on GET /users/imports/{id}; the list leaves it out. */
  errors: z.array(userImportErrorSchema).optional(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type UserImportJob = z.infer<typeof userImportJobSchema>;
