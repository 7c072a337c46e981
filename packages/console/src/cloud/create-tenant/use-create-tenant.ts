import type { Tenant, TenantCreate } from '@gatehouse/schemas';
import { useCreateTenant } from '../../api/tenants.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';

/** POST /api/tenants, then the new tenant goes first in the local list (spec §4 tenant context: prepend). */
export function useCreateAndAddTenant() {
  const { prependTenant } = useTenants();
  const mutation = useCreateTenant();
  return {
    isPending: mutation.isPending,
    create: async (body: TenantCreate): Promise<Tenant> => {
      const tenant = await mutation.mutateAsync(body);
      prependTenant(tenant);
      return tenant;
    },
  };
}
