import { DEFAULT_TENANT_ID as defaultTenantId } from '@gatehouse/schemas';
import { useCallback, useMemo } from 'react';
import { useParams } from 'react-router';
import { managementPath } from './management-path.ts';

export { managementPath, managementTenantOf } from './management-path.ts';

/**
 * What an area's API hooks need: the URL builder of the current tenant's management API, and a query-key prefix
 * that names the tenant, so switching tenants never shows one tenant's cached data in another (spec §4).
 */
export function useManagementApi() {
  const { tenantId } = useParams();
  const path = useCallback((relative: string) => managementPath(tenantId, relative), [tenantId]);
  const key = useCallback(
    (...parts: readonly unknown[]) => ['tenant', tenantId ?? defaultTenantId, ...parts] as const,
    [tenantId],
  );
  return useMemo(() => ({ path, key }), [path, key]);
}

/** Query-string of a list call; empty and undefined values are left out. */
export function listQuery(params: Record<string, string | number | boolean | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The `search` value for a literal substring search. The API reads a value holding `%` or `_` as a LIKE pattern
 * (reference compatibility) and wraps anything else in `%…%`; so 'read_o' alone would be a pattern matching only
 * itself. Escaping and wrapping here makes every typed character literal, '_' and '%' included.
 */
export function searchPattern(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed ? `%${trimmed.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : undefined;
}
