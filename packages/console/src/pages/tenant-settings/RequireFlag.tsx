import type { MemberPermissionFlags } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useCurrentMemberScopes } from '../../cloud/tenants/member-scopes.ts';
import { useTenants } from '../../cloud/tenants/TenantsProvider.tsx';
import { NotFound } from '../../components/NotFound/NotFound.tsx';
import { canSeeBilling } from './tabs.ts';

/**
 * Spec §2.2/§6: settings needs canManageTenant, invitations canInviteMember. The routes exist for everyone (they are
 * static), so a member without the flag who opens the address sees page-not-found, as for any unknown path.
 */
export function RequireFlag({ flag, children }: { flag: keyof MemberPermissionFlags; children: ReactNode }) {
  const { flags, isLoading } = useCurrentMemberScopes();
  if (isLoading) return null;
  return flags[flag] ? children : <NotFound />;
}

/**
 * Spec §2.2/§6: subscription and billing history need canManageTenant and a non-development tenant; anyone else who
 * opens the address sees page-not-found.
 */
export function RequireBilling({ children }: { children: ReactNode }) {
  const { flags, isLoading } = useCurrentMemberScopes();
  const { currentTenant } = useTenants();
  if (isLoading) return null;
  return canSeeBilling(flags, currentTenant?.tag) ? children : <NotFound />;
}
