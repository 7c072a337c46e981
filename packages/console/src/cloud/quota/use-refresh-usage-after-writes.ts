import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { createUsageRefresher, onSuccessfulWrites } from './refresh-usage.ts';

/** Spec §4: after each successful write in the cloud shell, the current tenant's quota and usage are read again. */
export function useRefreshUsageAfterWrites(): void {
  const client = useQueryClient();
  const { currentTenantId, updateTenant } = useTenants();
  const tenantId = useRef(currentTenantId);
  tenantId.current = currentTenantId;
  useEffect(() => {
    const refresh = createUsageRefresher(client, updateTenant);
    return onSuccessfulWrites(client, () => void refresh(tenantId.current));
  }, [client, updateTenant]);
}
