import { applicationSchema, type LogPayload, logSchema, userSchema } from '@gatehouse/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson, requestPage } from './client.ts';
import { listQuery, useManagementApi } from './management.ts';

export type LogResult = LogPayload['result'];

/**
 * Which entries a log list shows (GET /logs filters, reference §10 names): whose (a user's or an application's
 * logs tab), which event (`logKey`, exact), whether it worked (`result`) and when (epoch ms, start inclusive).
 */
export type LogFilter = {
  userId?: string | undefined;
  applicationId?: string | undefined;
  logKey?: string | undefined;
  result?: LogResult | undefined;
  start_time?: number | undefined;
  end_time?: number | undefined;
};

/** A page of the audit log, newest first, filtered as the list or tab needs. */
export function useLogs(
  filter: LogFilter,
  { page, pageSize, enabled = true }: { page: number; pageSize: number; enabled?: boolean },
) {
  const api = useManagementApi();
  return useQuery({
    // Off while the filters cannot be asked (a time range that ends before it starts).
    enabled,
    queryKey: api.key('logs', 'list', filter, { page, pageSize }),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/logs${listQuery({ ...filter, page, page_size: pageSize })}`), logSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useLog(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('logs', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/logs/${encodeURIComponent(id)}`), logSchema, { signal }),
    // The entry page says it does not exist; a toast would say it twice.
    meta: { silenceErrorCodes: ['entity.not_exists_with_id'] },
  });
}

/**
 * Who an entry names, for the list's user and application columns: one request per distinct id (cached under the
 * detail's key, so ids repeated on a page or opened later cost nothing more). A deleted user or application is no
 * error here: the column shows its id instead, without a toast.
 */
export function useLogUser(id: string | undefined) {
  const api = useManagementApi();
  return useQuery({
    enabled: id !== undefined,
    queryKey: api.key('users', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/users/${encodeURIComponent(id ?? '')}`), userSchema, { signal }),
    retry: false,
    staleTime: 60_000,
    meta: { silenceErrorCodes: true },
  });
}

export function useLogApplication(id: string | undefined) {
  const api = useManagementApi();
  return useQuery({
    enabled: id !== undefined,
    queryKey: api.key('applications', 'detail', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/applications/${encodeURIComponent(id ?? '')}`), applicationSchema, { signal }),
    retry: false,
    staleTime: 60_000,
    meta: { silenceErrorCodes: true },
  });
}
