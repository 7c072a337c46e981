import { type UserImportCreate, type UserImportJob, userImportJobSchema } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** How often a running import is polled for its progress. */
export const importPollMs = 500;

const isFinished = (job: UserImportJob | undefined) => job?.status === 'succeeded' || job?.status === 'failed';

/** POST /users/imports: queues the job (202) and answers it. */
export function useStartUserImport() {
  const api = useManagementApi();
  return useMutation({
    mutationFn: (body: UserImportCreate) =>
      requestJson(api.path('/users/imports'), userImportJobSchema, { method: 'POST', json: body }),
  });
}

/**
 * One import job, polled until it has finished; then the users list is refreshed (the import may have created or
 * changed users).
 */
export function useUserImportJob(id: string | undefined) {
  const api = useManagementApi();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: api.key('user-imports', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/users/imports/${encodeURIComponent(id ?? '')}`), userImportJobSchema, { signal }),
    enabled: id !== undefined,
    refetchInterval: (current) => (isFinished(current.state.data) ? false : importPollMs),
  });
  const finished = isFinished(query.data) && !query.data?.dryRun;
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: api.key('users') });
  }, [finished, client, api]);
  return query;
}
