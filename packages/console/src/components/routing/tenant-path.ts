import { useCallback } from 'react';
import { generatePath, useParams } from 'react-router';

/**
 * Link builders of the areas return paths relative to the tenant ('applications/abc/settings'), so they do not need
 * to know the edition. This resolves one to a router path: '/x' in OSS, '/{tenantId}/x' in cloud (spec §2.1). The
 * tenant comes from the current route, which is how the OSS routes (no tenant segment) and cloud routes differ.
 */
export function resolveTenantPath(tenantId: string | undefined, path: string): string {
  const relative = path.replace(/^\/+/, '');
  if (tenantId === undefined) return `/${relative}`;
  const tenant = generatePath('/:tenantId', { tenantId });
  return relative ? `${tenant}/${relative}` : tenant;
}

export function useTenantPath(): (path: string) => string {
  const { tenantId } = useParams();
  return useCallback((path: string) => resolveTenantPath(tenantId, path), [tenantId]);
}

/** Encodes one path segment, so an id with '/' or '?' cannot change which page a link opens. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
