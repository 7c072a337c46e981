import type { Tenant } from '@gatehouse/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { useParams } from 'react-router';
import { meQueryKey } from '../../api/me.ts';
import { cloudKeys, fetchTenants } from '../../api/tenants.ts';

export type TenantsContextValue = {
  /** The signed-in user's tenants, newest created first after a local create (spec §4 tenant context). */
  tenants: Tenant[];
  /** True once GET /api/tenants answered. */
  isLoaded: boolean;
  /** The first path segment when it is under the ':tenantId' route. */
  currentTenantId?: string;
  currentTenant?: Tenant;
  prependTenant(tenant: Tenant): void;
  removeTenant(id: string): void;
  updateTenant(id: string, patch: Partial<Tenant>): void;
  resetTenants(list: Tenant[]): void;
};

const TenantsContext = createContext<TenantsContextValue | undefined>(undefined);

/** Query keys a tenant change keeps (spec §4): the account ('me') and the server's well-known documents. */
const keptOnTenantChange = new Set<unknown>([meQueryKey[0], 'well-known']);

/**
 * Spec §4 tenant context: the tenant list, loaded once after sign-in and then kept locally (create, leave, rename
 * change it without a reload). The list lives in the query cache under cloudKeys.tenants so useTenantList() reads
 * the same data.
 */
export function TenantsProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const { tenantId } = useParams();
  const query = useQuery({
    queryKey: cloudKeys.tenants,
    queryFn: ({ signal }) => fetchTenants(signal),
    // Local changes are the truth between loads; a refetch would only race them.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const tenants = query.data ?? [];

  const set = useCallback(
    (change: (list: Tenant[]) => Tenant[]) =>
      client.setQueryData<Tenant[]>(cloudKeys.tenants, (list) => change(list ?? [])),
    [client],
  );
  const prependTenant = useCallback(
    (tenant: Tenant) => set((list) => [tenant, ...list.filter((item) => item.id !== tenant.id)]),
    [set],
  );
  const removeTenant = useCallback((id: string) => set((list) => list.filter((item) => item.id !== id)), [set]);
  const updateTenant = useCallback(
    (id: string, patch: Partial<Tenant>) =>
      set((list) => list.map((item) => (item.id === id ? { ...item, ...patch } : item))),
    [set],
  );
  const resetTenants = useCallback((list: Tenant[]) => set(() => list), [set]);

  // Spec §4: a tenant change refreshes every cached query but the account's and the well-known documents.
  const previous = useRef(tenantId);
  useEffect(() => {
    if (previous.current === tenantId) return;
    const left = previous.current;
    previous.current = tenantId;
    if (left === undefined || tenantId === undefined) return;
    void client.invalidateQueries({
      predicate: (cached) => !keptOnTenantChange.has(cached.queryKey[0]) && cached.queryKey[1] !== 'tenants',
    });
  }, [client, tenantId]);

  const value = useMemo<TenantsContextValue>(() => {
    const currentTenant = tenantId === undefined ? undefined : tenants.find((tenant) => tenant.id === tenantId);
    return {
      tenants,
      isLoaded: query.isSuccess,
      ...(tenantId === undefined ? {} : { currentTenantId: tenantId }),
      ...(currentTenant ? { currentTenant } : {}),
      prependTenant,
      removeTenant,
      updateTenant,
      resetTenants,
    };
  }, [tenants, query.isSuccess, tenantId, prependTenant, removeTenant, updateTenant, resetTenants]);

  return <TenantsContext.Provider value={value}>{children}</TenantsContext.Provider>;
}

export function useTenants(): TenantsContextValue {
  const value = useContext(TenantsContext);
  if (!value) throw new Error('useTenants() outside <TenantsProvider>');
  return value;
}

/** The error of the tenant list load, for the loading screen to show instead of spinning forever. */
export function useTenantsLoadError(): Error | null {
  return useQuery({
    queryKey: cloudKeys.tenants,
    queryFn: ({ signal }) => fetchTenants(signal),
    staleTime: Number.POSITIVE_INFINITY,
  }).error;
}
