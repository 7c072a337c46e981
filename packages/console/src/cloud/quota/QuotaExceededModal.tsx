import { useSyncExternalStore } from 'react';
import { Modal } from '../../components/Modal/Modal.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { planLabel } from '../checkout/plan-name.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import styles from './Quota.module.css';
import { type ExceededQuota, quotaExceededStore } from './quota-exceeded.ts';
import { UpgradeAction } from './UpgradeAction.tsx';

function QuotaRow({ quota, plan }: { quota: ExceededQuota; plan: string }) {
  const { t, i18n } = useTranslation('quota');
  const name = t(`names.${quota.key}`);
  const number = new Intl.NumberFormat(i18n.language);
  // The server refuses counted quotas with a numeric limit; a disabled feature (false) reads as not included.
  const text =
    typeof quota.limit === 'number'
      ? t('exceeded.row_count', { name, usage: number.format(quota.usage), limit: number.format(quota.limit), plan })
      : t('exceeded.row_unavailable', { name, plan });
  return <li>{text}</li>;
}

/**
 * Spec §8 quota: the modal a quota refusal (403 subscription.quota_exceeded) raises instead of the error toast. It
 * names each refused quota with its usage and the plan, and offers the subscription tab to tenant managers.
 */
export function QuotaExceededModal() {
  const { t } = useTranslation(['quota', 'tenants']);
  const quotas = useSyncExternalStore(quotaExceededStore.subscribe, quotaExceededStore.get);
  const { currentTenant } = useTenants();
  if (!quotas || !currentTenant) return null;
  const plan = t(`tenants:plan.${planLabel(currentTenant.planId)}`);
  return (
    <Modal
      isOpen
      onClose={quotaExceededStore.dismiss}
      title={t('exceeded.title')}
      size="small"
      footer={
        <UpgradeAction
          tenantId={currentTenant.id}
          label={t('exceeded.upgrade')}
          contactText={t('exceeded.contact_admin')}
          onNavigate={quotaExceededStore.dismiss}
        />
      }
    >
      <div className={styles.body} data-testid="quota-exceeded-modal">
        <p>{t('exceeded.description', { plan })}</p>
        <ul className={styles.list}>
          {quotas.map((quota) => (
            <QuotaRow key={quota.key} quota={quota} plan={plan} />
          ))}
        </ul>
      </div>
    </Modal>
  );
}
