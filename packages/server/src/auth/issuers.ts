import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';

/**
 * One OIDC issuer per tenant. The default tenant keeps the plain `/oidc` path so applications
 * written for a single-tenant install work unchanged; every other tenant lives under `/t/{id}/oidc`.
 */
export function issuerPath(tenantId: string): string {
  return tenantId === DEFAULT_TENANT_ID ? '/oidc' : `/t/${tenantId}/oidc`;
}

export function issuerUrl(publicUrl: string, tenantId: string): string {
  return `${publicUrl}${issuerPath(tenantId)}`;
}

/** The resource indicator (token audience) of a tenant's management API. */
export function managementResource(tenantId: string): string {
  return `https://${tenantId}.gatehouse.internal/api`;
}

/**
 * The resource indicator of the 'me' API (spec §7), where a console user reads and changes their
 * own account. Tokens for it come from the admin tenant's issuer.
 */
export const ME_RESOURCE = 'https://admin.gatehouse.internal/me';
