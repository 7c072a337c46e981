import {
  type AccountDeletionBlocker,
  type AccountDeletionBlockReason,
  accountDeletionBlockedDataSchema,
} from '@gatehouse/schemas';
import { ApiError } from '../../../api/client.ts';

/** One tenant that blocks the deletion, with all its issues. */
export type TenantIssues = { tenantId: string; tenantName: string; reasons: AccountDeletionBlockReason[] };

/** The server lists one entry per tenant and issue; the guard modal shows each tenant once, in the server's order. */
export function issuesByTenant(blockers: readonly AccountDeletionBlocker[]): TenantIssues[] {
  const byTenant = new Map<string, TenantIssues>();
  for (const { tenantId, tenantName, reason } of blockers) {
    const issues = byTenant.get(tenantId) ?? { tenantId, tenantName, reasons: [] };
    if (!issues.reasons.includes(reason)) issues.reasons.push(reason);
    byTenant.set(tenantId, issues);
  }
  return [...byTenant.values()];
}

/**
 * The blockers of a deletion the server refused (422 `user.delete_blocked`): something changed between the preview
 * and the deletion (a plan bought, an invoice opened). Undefined for any other failure.
 */
export function blockersOfRefusal(error: unknown): AccountDeletionBlocker[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'user.delete_blocked') return undefined;
  const parsed = accountDeletionBlockedDataSchema.safeParse(error.data);
  return parsed.success && parsed.data.blockers.length > 0 ? parsed.data.blockers : undefined;
}
