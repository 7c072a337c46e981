import { z } from 'zod';

/** Spec §3: ids are strings of 1 to 21 characters (users up to 12). */
export const idSchema = z.string().min(1).max(21);
export const userIdSchema = z.string().min(1).max(12);

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random id from a uniform alphabet (spec §9: generator lengths 21 and 12). */
export function generateId(length = 21): string {
  // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
  let id = '';
  while (id.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < 252 && id.length < length) id += alphabet[byte % 36];
    }
  }
  return id;
}

/**
 * Spec §6: the admin tenant's organization that stands for tenant X. Here, not in tenant.ts, so the console's session
 * module does not pull the tenant schemas (and the organization and plan schemas they use) into its first page.
 */
export function tenantOrganizationId(tenantId: string): string {
  return `t-${tenantId}`;
}

/** The tenant of an admin-tenant organization id, or undefined when it is not a tenant's organization. */
export function tenantIdOfOrganization(organizationId: string): string | undefined {
  return organizationId.startsWith('t-') ? organizationId.slice(2) : undefined;
}
