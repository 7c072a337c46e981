import { CLOUD_API_RESOURCE, type LogPayload, logSchema, tenantMemberSchema } from '@gatehouse/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { requestJson, requestPage } from './client.ts';
import { listQuery, useManagementApi } from './management.ts';
import { useMe } from './me.ts';
import { cloudKeys } from './tenants.ts';

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

/**
 * A page of the audit log, newest first, filtered as the list or tab needs. Each entry comes with `names`: what its
 * actor, user, application and entity are called in the tenant (read by the server with the page, never one
 * request per row from here).
 */
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
      requestPage(
        api.path(`/logs${listQuery({ ...filter, page, page_size: pageSize, includeNames: true })}`),
        logSchema,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useLog(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('logs', 'detail', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/logs/${encodeURIComponent(id)}?includeNames=true`), logSchema, { signal }),
    // The entry page says it does not exist; a toast would say it twice.
    meta: { silenceErrorCodes: ['entity.not_exists_with_id'] },
  });
}

/** A console user as the console lists people: name, else username, else email. */
const displayName = (user: { name: string | null; username: string | null; primaryEmail: string | null }) =>
  [user.name, user.username, user.primaryEmail].find((value) => value?.trim())?.trim();

/**
 * Names of console admins, by user id. An admin is a user of the admin tenant, which a tenant's log cannot name
 * (its data is the tenant's only), so the console names the admins it knows already: the signed-in admin (`/me`,
 * which the shell has loaded) and, in the cloud edition, the tenant's members (one request for the whole list,
 * shared with the members page). Either failing is no error here: an admin the console does not know shows by id.
 */
export function useConsoleAdminNames(): ReadonlyMap<string, string> {
  const me = useMe();
  const { tenantId } = useParams();
  const members = useQuery({
    enabled: import.meta.env.GATEHOUSE_EDITION === 'cloud' && tenantId !== undefined,
    queryKey: cloudKeys.members(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${encodeURIComponent(tenantId ?? '')}/members`, z.array(tenantMemberSchema), {
        resource: CLOUD_API_RESOURCE,
        signal,
      }),
    retry: false,
    staleTime: 5 * 60_000,
    meta: { silenceErrorCodes: true },
  });
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const member of members.data ?? []) {
      const name = displayName(member);
      if (name) names.set(member.id, name);
    }
    const myName = me.data && displayName(me.data);
    if (me.data && myName) names.set(me.data.id, myName);
    return names;
  }, [members.data, me.data]);
}
