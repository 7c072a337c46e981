import { z } from 'zod';

/**
 * Deleting one's own console account (cloud edition, spec §2.12 / §4 "Delete account", issue 42): the 'me' API's
 * `GET /api/me/deletion-preview` and `DELETE /api/me`. docs/areas/me.md#deleting-the-account says what goes.
 */

/** Body of `DELETE /api/me`: the proof of the password (POST /api/me/password/verify) when the account has one. */
export const meDeleteSchema = z.strictObject({
  verificationRecordId: z
    .string()
    .max(4096)
    .optional()
    .describe('From POST /api/me/password/verify; needed when the account has a password.'),
});
export type MeDelete = z.infer<typeof meDeleteSchema>;

/** A tenant the deletion deletes or leaves. */
export const accountDeletionTenantSchema = z.object({ id: z.string(), name: z.string() });
export type AccountDeletionTenant = z.infer<typeof accountDeletionTenantSchema>;

/**
 * Why a tenant the deletion would delete blocks it (spec §4): a plan other than Free or Development, a subscription
 * that is not active, open (unpaid) invoices; and a built-in tenant (`default`), which is never deleted.
 */
export const accountDeletionBlockReasons = [
  'paid_plan',
  'subscription_inactive',
  'open_invoices',
  'reserved_tenant',
] as const;
export type AccountDeletionBlockReason = (typeof accountDeletionBlockReasons)[number];

/** One issue of one tenant; a tenant with several issues has one entry for each. */
export const accountDeletionBlockerSchema = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  reason: z.enum(accountDeletionBlockReasons),
});
export type AccountDeletionBlocker = z.infer<typeof accountDeletionBlockerSchema>;

/**
 * What deleting the account would do now, oldest tenant first: the tenants deleted with all their data (the account
 * is their only admin), the tenants it leaves (another admin stays), and what blocks the deletion (empty: nothing).
 */
export const accountDeletionPreviewSchema = z.object({
  deletes: z.array(accountDeletionTenantSchema),
  leaves: z.array(accountDeletionTenantSchema),
  blockers: z.array(accountDeletionBlockerSchema),
});
export type AccountDeletionPreview = z.infer<typeof accountDeletionPreviewSchema>;

/** `data` of the 422 `user.delete_blocked` answer: the same issues the preview lists. */
export const accountDeletionBlockedDataSchema = z.object({ blockers: z.array(accountDeletionBlockerSchema) });
export type AccountDeletionBlockedData = z.infer<typeof accountDeletionBlockedDataSchema>;
