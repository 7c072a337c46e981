import { resourceSchema, scopeSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { requestPage } from './client.ts';
import { listQuery, searchPattern, useManagementApi } from './management.ts';

/** A page of a picker list: 1-based page, its size and the server-side search text. */
export type PickerPageQuery = { page: number; pageSize: number; search: string };

const pageParams = ({ page, pageSize, search }: PickerPageQuery) => ({
  page,
  page_size: pageSize,
  search: searchPattern(search),
});

/**
 * The API resources and their scopes, paged and searched on the server, for the permission picker of roles and of
 * organization roles. `cacheKey` places the cached pages under their owner (a role), so a write there refreshes them.
 */
export function usePermissionPickerLoaders(cacheKey: readonly unknown[]) {
  const api = useManagementApi();
  const keyText = JSON.stringify(cacheKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's parts are compared by value (keyText).
  return useMemo(
    () => ({
      resources: (query: PickerPageQuery, signal: AbortSignal) =>
        requestPage(api.path(`/resources${listQuery(pageParams(query))}`), resourceSchema, { signal }),
      scopes: (resourceId: string, query: PickerPageQuery, signal: AbortSignal) =>
        requestPage(
          api.path(`/resources/${encodeURIComponent(resourceId)}/scopes${listQuery(pageParams(query))}`),
          scopeSchema,
          { signal },
        ),
      key: (...parts: readonly unknown[]) => api.key(...cacheKey, ...parts),
    }),
    [api, keyText],
  );
}
