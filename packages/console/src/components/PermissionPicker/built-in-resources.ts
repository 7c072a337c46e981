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
