import type { Subscription } from '@gatehouse/schemas';
import { useAvailableSkus, useSkus, useSubscription, useSubscriptionUsage } from '../../../api/billing.ts';
import { planLabel } from '../../../cloud/checkout/plan-name.ts';
import { useCheckout } from '../../../cloud/checkout/use-checkout.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toTenantSettings } from '../tabs.ts';
import { type PlanCheckout, PlanOptions } from './PlanOptions.tsx';
import { PlanSummary } from './PlanSummary.tsx';
import styles from './Subscription.module.css';
import { UsageCards } from './UsageCards.tsx';

/**
 * Spec §2.11 subscription page (tenant managers of non-development tenants): the current plan, this cycle's usage
 * against its quotas, and the plans to move to.
 */
export function SubscriptionTab() {
  const { currentTenant } = useTenants();
  if (!currentTenant) return null;
  return <SubscriptionContent tenantId={currentTenant.id} fallback={currentTenant.subscription} />;
}

function SubscriptionContent({ tenantId, fallback }: { tenantId: string; fallback: Subscription }) {
  const { t } = useTranslation(['subscription', 'quota', 'tenants']);
  const subscriptionQuery = useSubscription(tenantId);
  const usage = useSubscriptionUsage(tenantId);
  const skus = useSkus('Basic');
  const available = useAvailableSkus(tenantId);
  const checkout = useCheckout();
  // The tenant list already carries the subscription: the plan card never waits for the second read.
  const subscription = subscriptionQuery.data ?? fallback;
  const unitPrice = skus.data?.find((sku) => sku.id === subscription.planId)?.unitPrice;
  const isEnterprise = subscription.isEnterprisePlan || planLabel(subscription.planId) === 'enterprise';

  const planCheckout: PlanCheckout = {
    processingSkuId: checkout.processingSkuId,
    start: (skuId, isDowngrade) =>
      checkout.start(
        skuId,
        { tenantId },
        { callbackPage: `/${encodeURIComponent(tenantId)}/${toTenantSettings('subscription')}`, isDowngrade },
      ),
  };

  return (
    <div className={styles.stack}>
      <PlanSummary tenantId={tenantId} subscription={subscription} unitPrice={unitPrice} />
      {usage.isLoading ? (
        <Loading />
      ) : usage.data ? (
        <UsageCards planId={subscription.planId} usage={usage.data} />
      ) : (
        <LoadFailed onRetry={() => usage.refetch()} />
      )}
      {isEnterprise ? (
        <Card title={t('plans.title')}>
          <p className={styles.muted}>{t('plans.enterprise')}</p>
        </Card>
      ) : available.data ? (
        <PlanOptions
          tenantId={tenantId}
          currentPlanId={subscription.planId}
          skus={available.data}
          checkout={planCheckout}
        />
      ) : available.isLoading ? (
        <Loading />
      ) : (
        <LoadFailed onRetry={() => available.refetch()} />
      )}
    </div>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => unknown }) {
  const { t } = useTranslation(['subscription', 'quota', 'tenants']);
  return (
    <Card>
      <div role="alert" className={styles.stack}>
        <p className={styles.muted}>{t('load_failed')}</p>
        <span>
          <Button onClick={onRetry}>{t('retry')}</Button>
        </span>
      </div>
    </Card>
  );
}
