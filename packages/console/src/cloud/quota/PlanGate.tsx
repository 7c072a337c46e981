import type { QuotaKey } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSubscriptionUsage } from '../../api/billing.ts';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { canSeeBilling } from '../../pages/tenant-settings/tabs.ts';
import { planLabel } from '../checkout/plan-name.ts';
import { useCurrentMemberScopes } from '../tenants/member-scopes.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { isCountedOn, planGate } from './plan-gate.ts';
import styles from './Quota.module.css';
import { subscriptionTabPath } from './subscription-link.ts';

/**
 * Issue 26: placed next to a create or enable action whose plan feature is `quota`. When the tenant's plan leaves the
 * feature out or its limit is reached, it shows, before any click, the lowest plan that has it (a tag), why, and the
 * way to the subscription tab (for those who may open it). Otherwise, and always in the OSS edition, nothing.
 * Given the action as `children`, it keeps the mark and the action together on one line (the action stays usable:
 * the server's refusal and the quota modal remain the safety net).
 */
export function PlanGate({ quota, children }: { quota: QuotaKey; children?: ReactNode }) {
  // The build-time constant lets the OSS bundle drop the cloud part.
  return import.meta.env.GATEHOUSE_EDITION === 'cloud' ? (
    <CloudPlanGate quota={quota}>{children}</CloudPlanGate>
  ) : (
    (children ?? null)
  );
}

/** The cloud part, exported for its tests (they run with the OSS define). */
export function CloudPlanGate({ quota, children }: { quota: QuotaKey; children?: ReactNode }) {
  const { t } = useTranslation(['quota', 'tenants']);
  const { currentTenant } = useTenants();
  const { flags } = useCurrentMemberScopes();
  const planId = currentTenant?.planId ?? '';
  // A count is read only when the plan limits it by a number; on/off features need the plan alone.
  const usage = useSubscriptionUsage(currentTenant && isCountedOn(planId, quota) ? currentTenant.id : undefined);
  const gate = currentTenant ? planGate(planId, quota, usage.data?.usage[quota]) : undefined;
  if (!currentTenant || gate?.kind !== 'gated') return children ?? null;
  const current = t(`tenants:plan.${planLabel(planId)}`);
  const mark = (
    <span className={styles.gate} data-testid={`plan-gate-${quota}`}>
      <Tag status="info">{t(`tenants:plan.${planLabel(gate.planId ?? 'enterprise')}`)}</Tag>
      <span className={styles.muted}>{t(`gate.${gate.reason}`, { plan: current, name: t(`names.${quota}`) })}</span>
      {canSeeBilling(flags, currentTenant.tag) && (
        <Link to={subscriptionTabPath(currentTenant.id)} className={styles.gateLink}>
          {t('exceeded.upgrade')}
        </Link>
      )}
    </span>
  );
  return children ? (
    <span className={styles.gate}>
      {mark}
      {children}
    </span>
  ) : (
    mark
  );
}
