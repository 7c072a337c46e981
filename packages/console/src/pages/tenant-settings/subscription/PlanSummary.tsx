import type { Subscription, SubscriptionStatus } from '@gatehouse/schemas';
import { useCustomerPortal, usePaymentProvider } from '../../../api/billing.ts';
import { ApiError } from '../../../api/client.ts';
import { formatBillingDate, formatMoney, formatPlanCycle } from '../../../cloud/billing-format.ts';
import { planLabel } from '../../../cloud/checkout/plan-name.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { Tag, type TagStatus } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { showsNextBill } from './plan-rules.ts';
import styles from './Subscription.module.css';

const statusTag: Record<SubscriptionStatus, TagStatus> = {
  active: 'success',
  past_due: 'warning',
  canceled: 'neutral',
};

/** Plans the payment provider bills: only they have a customer (payment methods, invoices) at the provider. */
const isBilledPlan = (planId: string) => !['free', 'development', 'admin'].includes(planLabel(planId));

/**
 * Spec §2.11 subscription page, the plan card: its name, monthly price, the current cycle, status, the next-bill
 * hint (§9) and the way to the provider's customer portal.
 */
export function PlanSummary({
  tenantId,
  subscription,
  unitPrice,
}: {
  tenantId: string;
  subscription: Subscription;
  /** The plan's monthly price in cents; undefined when unknown (enterprise plans are priced per contract). */
  unitPrice: number | undefined;
}) {
  const { t, i18n } = useTranslation(['subscription', 'quota', 'tenants']);
  const language = i18n.language;
  const label = planLabel(subscription.planId);
  const isEnterprise = subscription.isEnterprisePlan || label === 'enterprise';

  return (
    <Card
      title={t('plan.title')}
      actions={isBilledPlan(subscription.planId) ? <ManagePaymentButton tenantId={tenantId} /> : undefined}
    >
      <div className={styles.planHeader}>
        <p className={styles.planName} data-testid="current-plan">
          {t(`tenants:plan.${label}`)}
        </p>
        {unitPrice !== undefined && !isEnterprise && (
          <p className={styles.price}>{t('plan.price_per_month', { price: formatMoney(unitPrice, language) })}</p>
        )}
        <Tag status={statusTag[subscription.status]}>{t(`status.${subscription.status}`)}</Tag>
      </div>
      <div className={styles.planFacts}>
        <p className={styles.muted}>
          {t('plan.cycle', {
            cycle: formatPlanCycle(subscription.currentPeriodStart, subscription.currentPeriodEnd, language),
          })}
        </p>
        {unitPrice !== undefined && showsNextBill(unitPrice, isEnterprise) && (
          <p className={styles.muted} data-testid="next-bill">
            {t('plan.next_bill', {
              amount: formatMoney(unitPrice, language),
              date: formatBillingDate(subscription.currentPeriodEnd, language),
            })}
          </p>
        )}
      </div>
    </Card>
  );
}

/** Spec §7 customer portal: the provider's page for payment methods opens in a new window, cut off from this one. */
function ManagePaymentButton({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation(['subscription', 'quota', 'tenants']);
  const provider = usePaymentProvider();
  const portal = useCustomerPortal(tenantId);

  async function open() {
    if (!provider.data) return;
    try {
      const uri = await portal.mutateAsync({ providerId: provider.data.id, callbackUrl: window.location.href });
      window.open(uri, '_blank', 'noopener,noreferrer');
    } catch (error) {
      // The query client's handler has already shown the server's message.
      if (!(error instanceof ApiError)) throw error;
    }
  }

  return (
    <Button onClick={open} disabled={!provider.data}>
      {t('plan.manage_payment')}
    </Button>
  );
}
