/**
 * The management API of a tenant: '/api' in OSS (no tenant segment), '/m/{tenantId}/api' in cloud (server app.ts).
 * In its own module so the HTTP client can read paths back without importing React code.
 */
export function managementPath(tenantId: string | undefined, path: string): string {
  const base = tenantId === undefined ? '/api' : `/m/${encodeURIComponent(tenantId)}/api`;
  return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The tenant of a cloud management API path ('/m/{tenantId}/api…'), or undefined for any other path. */
export function managementTenantOf(path: string): string | undefined {
  const match = /^\/m\/([^/?#]+)\/api(?:[/?#]|$)/.exec(path);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}
