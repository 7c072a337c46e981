import type { RoleType } from '@gatehouse/schemas';

/**
 * A tenant's own management API ('https://{tenant}.gatehouse.internal/api'). Its scopes never go to user roles: the
 * tenant's issuer also signs its end users' tokens (docs/areas/roles.md). The server refuses them with 422
 * `role.management_api_scope_for_user_role`; the picker says so before anyone tries.
 */
export function isManagementApi(indicator: string): boolean {
  try {
    const url = new URL(indicator);
    return url.hostname.endsWith('.gatehouse.internal') && url.pathname === '/api';
  } catch {
    return false;
  }
}

/** The picks a role of this type can start with: management API permissions wait unused while the type is User. */
export function usablePicks<Pick extends { resource: { indicator: string } }>(
  picks: ReadonlyMap<string, Pick>,
  roleType: RoleType,
): ReadonlyMap<string, Pick> {
  if (roleType !== 'User') return picks;
  return new Map([...picks].filter(([, pick]) => !isManagementApi(pick.resource.indicator)));
}
