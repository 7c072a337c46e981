import { DEFAULT_TENANT_ID } from './constants.ts';

/**
 * One OIDC issuer per tenant, below the public URL. The default tenant keeps the plain '/oidc' path so applications
 * written for a single-tenant install work unchanged; every other tenant lives under '/t/{id}/oidc'. The server
 * mounts its providers by this rule and the console shows the URLs it builds with it.
 */
export function issuerPath(tenantId: string): string {
  return tenantId === DEFAULT_TENANT_ID ? '/oidc' : `/t/${encodeURIComponent(tenantId)}/oidc`;
}

/** The resource indicator (token audience) of a tenant's management API. */
export function managementResourceIndicator(tenantId: string): string {
  return `https://${tenantId}.gatehouse.internal/api`;
}

/**
 * OIDC scopes for a user's organizations: the id token and userinfo then carry `organizations` (ids) and
 * `organization_roles` (`<organization id>:<role name>`). A refresh token granted the first one may be exchanged
 * for organization tokens (`organization_id` on the token request).
 */
export const ORGANIZATIONS_SCOPE = 'urn:gatehouse:scope:organizations';
export const ORGANIZATION_ROLES_SCOPE = 'urn:gatehouse:scope:organization_roles';

/** The audience of an organization token that carries organization permissions (not an API resource's). */
export function organizationAudience(organizationId: string): string {
  return `urn:gatehouse:organization:${organizationId}`;
}

const ORGANIZATION_URN_PREFIX = 'urn:gatehouse:organization:';
export const isOrganizationUrn = (value: string): boolean => value.startsWith(ORGANIZATION_URN_PREFIX);

/** The organization id of an organization token's audience; a TypeError for an invalid organization URN (spec §8). */
export function organizationIdFromUrn(urn: string): string {
  const id = urn.startsWith(ORGANIZATION_URN_PREFIX) ? urn.slice(ORGANIZATION_URN_PREFIX.length) : '';
  if (!/^[A-Za-z0-9_-]{1,21}$/.test(id)) throw new TypeError(`Invalid organization URN: ${urn.slice(0, 100)}`);
  return id;
}
