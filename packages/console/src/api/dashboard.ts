import { activeUsersSchema, newUsersSchema, totalUsersSchema } from '@gatehouse/schemas';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from './client.ts';
import { listQuery, useManagementApi } from './management.ts';

/** GET /dashboard/users/total: every user of the tenant. */
export function useTotalUsers() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('dashboard', 'total'),
    queryFn: ({ signal }) => requestJson(api.path('/dashboard/users/total'), totalUsersSchema, { signal }),
  });
}

/** GET /dashboard/users/new: created today and in the last 7 days, with deltas. */
export function useNewUsers() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('dashboard', 'new'),
    queryFn: ({ signal }) => requestJson(api.path('/dashboard/users/new'), newUsersSchema, { signal }),
  });
}

/** GET /dashboard/users/active: DAU/WAU/MAU ending at `date` (UTC day; today when omitted) and the daily curve. */
export function useActiveUsers(date?: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('dashboard', 'active', date ?? 'today'),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/dashboard/users/active${listQuery({ date })}`), activeUsersSchema, { signal }),
  });
}
