import { type Domain, type DomainCreate, domainSchema } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** The tenant's custom domains (spec §2.2 tenant-settings 'domains'; server routes/domains.ts). */

const domainList = z.array(domainSchema);

/** Errors the add form shows under its field instead of a toast. */
export const domainFieldErrorCodes = ['domain.domain_in_use', 'domain.limit_reached', 'guard.invalid_input'] as const;

/** How often a domain that is not Active yet is fetched again; the server checks DNS and HTTPS at most this often. */
export const DOMAIN_POLL_MS = 10_000;

/** Polls while some domain still waits for its DNS or certificate; an Active domain is final. */
export function domainsPollInterval(domains: readonly Pick<Domain, 'status'>[] | undefined): number | false {
  return domains?.some((domain) => domain.status !== 'Active') ? DOMAIN_POLL_MS : false;
}

export function useDomains() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('domains'),
    queryFn: ({ signal }) => requestJson(api.path('/domains'), domainList, { signal }),
    refetchInterval: (query) => domainsPollInterval(query.state.data),
    // Each fetch may run the checks: a fresh answer on every visit, none while the tab is hidden.
    staleTime: 0,
  });
}

export function useCreateDomain() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DomainCreate) =>
      requestJson(api.path('/domains'), domainSchema, { method: 'POST', json: input }),
    onSuccess: (created) => {
      client.setQueryData(api.key('domains'), (old: Domain[] | undefined) => [created, ...(old ?? [])]);
    },
    meta: { silenceErrorCodes: domainFieldErrorCodes },
  });
}

export function useDeleteDomain() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.path(`/domains/${encodeURIComponent(id)}`), { method: 'DELETE' }),
    onSuccess: (_response, id) => {
      client.setQueryData(api.key('domains'), (old: Domain[] | undefined) => old?.filter((domain) => domain.id !== id));
      return client.invalidateQueries({ queryKey: api.key('domains') });
    },
  });
}
