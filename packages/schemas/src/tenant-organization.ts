// Zod-free (ids.ts re-exports these), so the console's session module does not pull zod into its first page.

/**
 * Spec §6: the admin tenant's organization that stands for tenant X. Not in tenant.ts either, so the session module
 * does not pull the tenant schemas (and the organization and plan schemas they use) into the first page.
 */
export function tenantOrganizationId(tenantId: string): string {
  return `t-${tenantId}`;
}

/** The tenant of an admin-tenant organization id, or undefined when it is not a tenant's organization. */
export function tenantIdOfOrganization(organizationId: string): string | undefined {
  return organizationId.startsWith('t-') ? organizationId.slice(2) : undefined;
}
