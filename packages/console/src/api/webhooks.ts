import {
  type HookCreate,
  type HookEvent,
  type HookPatch,
  type HookTestResult,
  hookLogSchema,
  hookSchema,
  hookTestResultSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request, requestJson, requestPage } from './client.ts';
import { listQuery, managementPath, searchPattern, useManagementApi } from './management.ts';

/** The webhooks area's calls (spec §2.2 webhooks; server routes/hooks.ts). */

const seg = encodeURIComponent;

export type HookListQuery = { page: number; pageSize: number; search: string };
export type HookLogsQuery = { page: number; pageSize: number; status?: 'success' | 'failed'; event?: HookEvent };

export function useHooks({ page, pageSize, search }: HookListQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('hooks', 'list', { page, pageSize, search }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/hooks${listQuery({ page, page_size: pageSize, search: searchPattern(search), includeExecutionStats: true })}`,
        ),
        hookSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Webhooks whose name or endpoint matches, for the command palette (outside React). */
export function searchHooks(tenantId: string | undefined, search: string, signal: AbortSignal) {
  return requestPage(
    managementPath(tenantId, `/hooks${listQuery({ search: searchPattern(search), page: 1, page_size: 5 })}`),
    hookSchema,
    { signal },
  );
}

export function useHook(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('hooks', 'detail', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/hooks/${seg(id)}${listQuery({ includeExecutionStats: true })}`), hookSchema, { signal }),
  });
}

export function useCreateHook() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hook: HookCreate) => requestJson(api.path('/hooks'), hookSchema, { method: 'POST', json: hook }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('hooks', 'list') }),
  });
}

/** A PATCH (settings, enable/disable) or the key rotation; both answer the whole hook. */
function useHookWrite<Input>(
  id: string,
  send: (input: Input) => { path: string; init: Parameters<typeof requestJson>[2] },
) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => {
      const { path, init } = send(input);
      return requestJson(api.path(path), hookSchema, init);
    },
    onSuccess: async (hook) => {
      // The answer has no stats: keep the ones shown until the refetch brings them.
      client.setQueryData(api.key('hooks', 'detail', id), (old: typeof hook | undefined) => ({
        ...hook,
        executionStats: old?.executionStats,
      }));
      await client.invalidateQueries({ queryKey: api.key('hooks', 'list') });
    },
  });
}

export const useUpdateHook = (id: string) =>
  useHookWrite(id, (patch: HookPatch) => ({ path: `/hooks/${seg(id)}`, init: { method: 'PATCH', json: patch } }));

export const useRotateSigningKey = (id: string) =>
  useHookWrite(id, (_: undefined) => ({ path: `/hooks/${seg(id)}/signing-key`, init: { method: 'PATCH' } }));

export function useDeleteHook(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/hooks/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('hooks', 'detail', id) });
      client.removeQueries({ queryKey: api.key('hooks', id) });
      await client.invalidateQueries({ queryKey: api.key('hooks', 'list') });
    },
  });
}

/**
 * Sends a sample payload now (not logged) and resolves with what the endpoint did, whether it succeeded or not: the
 * server answers a failed send 422 with the outcome as `data` (as the reference API), read here like a success.
 */
export function useTestHook(id: string) {
  const api = useManagementApi();
  return useMutation({
    mutationFn: async (event: HookEvent | undefined): Promise<HookTestResult> => {
      try {
        return await requestJson(api.path(`/hooks/${seg(id)}/test`), hookTestResultSchema, {
          method: 'POST',
          json: event ? { event } : {},
          headers: { Prefer: 'return=representation' },
        });
      } catch (error) {
        if (error instanceof ApiError && isTestFailure(error.code)) {
          const outcome = hookTestResultSchema.safeParse(error.data);
          if (outcome.success) return outcome.data;
        }
        throw error;
      }
    },
  });
}

const isTestFailure = (code: string | undefined) =>
  code === 'hook.send_test_payload_failed' || code === 'hook.endpoint_responded_with_error';

export function useHookLogs(id: string, { page, pageSize, status, event }: HookLogsQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('hooks', id, 'logs', { page, pageSize, status, event }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/hooks/${seg(id)}/recent-logs${listQuery({ page, page_size: pageSize, status, event })}`),
        hookLogSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useHookLog(id: string, logId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('hooks', id, 'log', logId),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/hooks/${seg(id)}/recent-logs/${seg(logId)}`), hookLogSchema, { signal }),
  });
}

/** Sends the recorded body again; the new attempt joins the recent requests. */
export function useReplayHookLog(id: string, logId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      requestJson(api.path(`/hooks/${seg(id)}/recent-logs/${seg(logId)}/replay`), hookLogSchema, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('hooks', id, 'logs') }),
  });
}
