import type { Sku } from '@gatehouse/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCancelSubscription } from '../../../api/billing.ts';
import { ApiError } from '../../../api/client.ts';
import { cloudKeys } from '../../../api/tenants.ts';
import { formatMoney } from '../../../cloud/billing-format.ts';
import { planLabel } from '../../../cloud/checkout/plan-name.ts';
import { PlanFeatureList } from '../../../cloud/PlanFeatureList.tsx';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { classNames } from '../../../components/class-names.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type DowngradeBlocked, DowngradeBlockedModal, parseDowngradeBlocked } from './DowngradeBlockedModal.tsx';
import { type PlanAction, planAction } from './plan-rules.ts';
import styles from './Subscription.module.css';

export type PlanCheckout = {
  /** Starts the provider's checkout for the plan (an upgrade, or a paid plan of the same or a lower tier). */
  start: (skuId: string, isDowngrade: boolean) => Promise<void>;
  /** The plan whose checkout is starting; every other plan button waits (spec §4 checkout). */
  processingSkuId: string | undefined;
};

/**
 * Spec §4 plan order: each plan the tenant may move to, with upgrade (checkout) or downgrade. Downgrading to Free
 * cancels the subscription after a confirmation; a refusal because usage does not fit lists the quotas.
 */
export function PlanOptions({
  tenantId,
  currentPlanId,
  skus,
  checkout,
}: {
  tenantId: string;
  currentPlanId: string;
  skus: readonly Sku[];
  checkout: PlanCheckout;
}) {
  const { t } = useTranslation(['subscription', 'quota', 'tenants']);
  const confirm = useConfirm();
  const toast = useToast();
  const { updateTenant } = useTenants();
  const queryClient = useQueryClient();
  const cancel = useCancelSubscription(tenantId);
  const [blocked, setBlocked] = useState<DowngradeBlocked>();
  const isBusy = checkout.processingSkuId !== undefined || cancel.isPending;

  async function downgradeToFree(sku: Sku) {
    const plan = t(`tenants:plan.${planLabel(sku.id)}`);
    const isConfirmed = await confirm({
      title: t('downgrade.title', { plan }),
      content: t('downgrade.content', { plan }),
      confirmText: t('downgrade.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      const subscription = await cancel.mutateAsync();
      updateTenant(tenantId, { planId: subscription.planId, subscription });
      // The list also carries the plan's MAU and token limits (the switcher's status tags): read it again.
      void queryClient.invalidateQueries({ queryKey: cloudKeys.tenants, exact: true });
      toast.success(t('downgrade.success', { plan: t(`tenants:plan.${planLabel(subscription.planId)}`) }));
    } catch (error) {
      const refusal = parseDowngradeBlocked(error);
      if (refusal) setBlocked(refusal);
      // Other API errors were toasted by the query client.
      else if (!(error instanceof ApiError)) throw error;
    }
  }

  function onChoose(sku: Sku, action: PlanAction) {
    if (action === 'downgrade' && sku.unitPrice === 0) return downgradeToFree(sku);
    return checkout.start(sku.id, action === 'downgrade');
  }

  return (
    <Card title={t('plans.title')} description={t('plans.description')}>
      <ul className={styles.grid} aria-label={t('plans.title')}>
        {skus.map((sku) => (
          <PlanOption
            key={sku.id}
            sku={sku}
            action={planAction(currentPlanId, sku.id)}
            isProcessing={checkout.processingSkuId === sku.id || (cancel.isPending && sku.unitPrice === 0)}
            isDisabled={isBusy}
            onChoose={onChoose}
          />
        ))}
      </ul>
      {blocked && <DowngradeBlockedModal blocked={blocked} onClose={() => setBlocked(undefined)} />}
    </Card>
  );
}

function PlanOption({
  sku,
  action,
  isProcessing,
  isDisabled,
  onChoose,
}: {
  sku: Sku;
  action: PlanAction;
  isProcessing: boolean;
  isDisabled: boolean;
  onChoose: (sku: Sku, action: PlanAction) => unknown;
}) {
  const { t, i18n } = useTranslation(['subscription', 'quota', 'tenants', 'plans']);
  const name = t(`tenants:plan.${planLabel(sku.id)}`);

  return (
    <li className={classNames(styles.planOption, action === 'current' && styles.currentOption)}>
      <h3 className={styles.usageTitle}>{name}</h3>
      <p className={styles.usageValue}>
        {t('plan.price_per_month', { price: formatMoney(sku.unitPrice, i18n.language) })}
      </p>
      <PlanFeatureList quota={sku.quota} label={t('plans:picker.features', { plan: name })} />
      {action === 'current' ? (
        <span>
          <Tag status="info">{t('plans.current')}</Tag>
        </span>
      ) : (
        <Button
          variant={action === 'upgrade' ? 'primary' : 'default'}
          isLoading={isProcessing}
          disabled={isDisabled}
          onClick={() => onChoose(sku, action)}
          aria-label={t(`plans.${action}_label`, { plan: name })}
        >
          {t(`plans.${action}`)}
        </Button>
      )}
    </li>
  );
}
