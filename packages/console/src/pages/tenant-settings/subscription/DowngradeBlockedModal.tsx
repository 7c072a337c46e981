import {
  type DowngradeBlockedData,
  downgradeBlockedDataSchema,
  type QuotaKey,
  type QuotaValue,
} from '@gatehouse/schemas';
import { ApiError } from '../../../api/client.ts';
import { formatUsage } from '../../../cloud/billing-format.ts';
import { planLabel } from '../../../cloud/checkout/plan-name.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './Subscription.module.css';

export const DOWNGRADE_BLOCKED_CODE = 'subscription.downgrade_blocked';

export type BlockedQuota = { key: QuotaKey; limit: QuotaValue; usage: number };
export type DowngradeBlocked = { planId: string; quotas: BlockedQuota[] };

/** The quotas a refused downgrade names, or undefined for any other error (or unreadable data). */
export function parseDowngradeBlocked(error: unknown): DowngradeBlocked | undefined {
  if (!(error instanceof ApiError) || error.code !== DOWNGRADE_BLOCKED_CODE) return undefined;
  const parsed = downgradeBlockedDataSchema.safeParse(error.data);
  if (!parsed.success) return undefined;
  const entries = Object.entries(parsed.data.quota) as [
    QuotaKey,
    NonNullable<DowngradeBlockedData['quota'][QuotaKey]>,
  ][];
  return { planId: parsed.data.planId, quotas: entries.map(([key, value]) => ({ key, ...value })) };
}

/** Spec §4 cancelling: the downgrade is refused while usage exceeds the target plan; this says what to remove. */
export function DowngradeBlockedModal({ blocked, onClose }: { blocked: DowngradeBlocked; onClose: () => void }) {
  const { t, i18n } = useTranslation(['subscription', 'quota', 'tenants']);
  const plan = t(`tenants:plan.${planLabel(blocked.planId)}`);

  function limit(value: QuotaValue): string {
    if (value === null || value === true) return t('usage.unlimited');
    if (value === false || value === 0) return t('usage.not_included');
    return formatUsage(value, i18n.language);
  }

  return (
    <Modal
      isOpen
      onClose={onClose}
      role="alertdialog"
      title={t('blocked.title', { plan })}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('blocked.got_it')}
        </Button>
      }
    >
      <p className={styles.muted}>{t('blocked.description', { plan })}</p>
      <ul className={styles.blockedList} aria-label={t('blocked.list_label')}>
        {blocked.quotas.map((quota) => (
          <li key={quota.key} className={styles.blockedItem}>
            <strong>{t(`quota:names.${quota.key}`)}</strong>
            <span className={styles.muted}>
              {t('blocked.limit_and_usage', {
                plan,
                limit: limit(quota.limit),
                usage: formatUsage(quota.usage, i18n.language),
              })}
            </span>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
