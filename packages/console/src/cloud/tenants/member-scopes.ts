import { type MemberPermissionFlags, memberPermissionFlags } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useMe } from '../../api/me.ts';
import { useMemberScopes } from '../../api/tenants.ts';
import { useTenants } from './TenantsProvider.tsx';

const none: string[] = [];

/** Spec §6: the signed-in member's permissions in the current tenant and the flags the console derives from them. */
export function useCurrentMemberScopes(): { scopes: string[]; flags: MemberPermissionFlags; isLoading: boolean } {
  const { currentTenantId } = useTenants();
  const me = useMe();
  const query = useMemberScopes(currentTenantId, me.data?.id);
  const scopes = query.data ?? none;
  const flags = useMemo(() => memberPermissionFlags(scopes), [scopes]);
  return { scopes, flags, isLoading: me.isLoading || query.isLoading };
}
