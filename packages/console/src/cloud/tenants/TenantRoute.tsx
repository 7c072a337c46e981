import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useMe, useUpdateCustomData } from '../../api/me.ts';
import { useMemberScopes } from '../../api/tenants.ts';
import { AppShell } from '../../app/AppShell.tsx';
import {
  clearOrganizationToken,
  organizationAccessToken,
  organizationTokenScopes,
  restartSignIn,
} from '../../auth/session.ts';
import { savedDefaultTenantId, tenantAccessDecision, withDefaultTenant } from './rules.ts';
import { useTenants } from './TenantsProvider.tsx';

/** One consent round per browser session: a server that kept minting short tokens must not loop the sign-in. */
const consentRetryKey = 'gatehouse:tenant-consent-retry';

/**
 * Spec §4 tenant access, around the shell of '/{tenantId}': unknown tenants redirect, a membership without scopes
 * drops the tenant, an organization token out of step with the member's scopes is renewed; an opened tenant becomes
 * the default one (spec §3).
 */
export function TenantRoute() {
  const { tenantId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { tenants, removeTenant } = useTenants();
  const me = useMe();
  const updateCustomData = useUpdateCustomData();
  const isKnown = tenants.some((tenant) => tenant.id === tenantId);
  const memberScopes = useMemberScopes(isKnown ? tenantId : undefined, me.data?.id);
  const customData = me.data?.customData;

  const prefix = `/${encodeURIComponent(tenantId)}`;
  const rest = `${location.pathname.startsWith(prefix) ? location.pathname.slice(prefix.length) : ''}${location.search}${location.hash}`;
  const membership = tenantAccessDecision({
    tenantId,
    rest,
    tenants,
    customData,
    memberScopes: undefined,
    tokenScopes: undefined,
  });

  // The scopes check needs the organization token, which the first management call may not have fetched yet.
  const scopes = memberScopes.data;
  useEffect(() => {
    if (!isKnown || scopes === undefined) return;
    let cancelled = false;
    const decide = () =>
      tenantAccessDecision({
        tenantId,
        rest: '',
        tenants,
        customData,
        memberScopes: scopes,
        tokenScopes: organizationTokenScopes(tenantId),
      });
    const act = () => {
      const decision = decide();
      if (decision.kind === 'remove') {
        removeTenant(tenantId);
        navigate('/', { replace: true });
      } else if (decision.kind === 'sign-in-again') {
        if (sessionStorage.getItem(consentRetryKey) === tenantId) return;
        sessionStorage.setItem(consentRetryKey, tenantId);
        void restartSignIn();
      } else if (decision.kind === 'clear-token') {
        clearOrganizationToken(tenantId);
      }
    };
    if (scopes.length === 0) act();
    else
      organizationAccessToken(tenantId)
        .then(() => {
          if (!cancelled) act();
        })
        .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [isKnown, scopes, tenantId, tenants, customData, removeTenant, navigate]);

  // Spec §3: the tenant the user opens becomes their default tenant.
  const { mutate: saveCustomData } = updateCustomData;
  useEffect(() => {
    if (!isKnown || !me.data || savedDefaultTenantId(me.data.customData) === tenantId) return;
    saveCustomData(withDefaultTenant(me.data.customData, tenantId));
  }, [isKnown, me.data, tenantId, saveCustomData]);

  if (membership.kind === 'redirect') return <Navigate to={membership.to} replace />;
  return <AppShell />;
}
