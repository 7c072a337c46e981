import type { QuotaKey, SubscriptionUsage } from '@gatehouse/schemas';
import { useId } from 'react';
import { formatQuota, formatUsage, formatUsagePercent } from '../../../cloud/billing-format.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { classNames } from '../../../components/class-names.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { isUsageExceeded, usageCardKeys } from './plan-rules.ts';
import styles from './Subscription.module.css';

/** Spec §9 usage cards: which quotas show depends on the plan; a paid plan at or over a quota turns red. */
export function UsageCards({ planId, usage }: { planId: string; usage: SubscriptionUsage }) {
  const { t } = useTranslation(['subscription', 'quota', 'tenants']);
  return (
    <Card title={t('usage.title')} description={t('usage.description')}>
      <ul className={styles.grid}>
        {usageCardKeys(planId).map((key) => (
          <UsageCard key={key} quotaKey={key} planId={planId} usage={usage} />
        ))}
      </ul>
    </Card>
  );
}

function UsageCard({ quotaKey, planId, usage }: { quotaKey: QuotaKey; planId: string; usage: SubscriptionUsage }) {
  const { t, i18n } = useTranslation(['subscription', 'quota', 'tenants']);
  const titleId = useId();
  const language = i18n.language;
  const quota = usage.quota[quotaKey];
  const used = usage.usage[quotaKey];
  const isExceeded = isUsageExceeded(planId, used, quota);

  function value(): string {
    // A feature switch (MFA): whether the plan includes it.
    if (typeof used === 'boolean' || quotaKey === 'mfaEnabled') {
      return quota === true || quota === null || (typeof quota === 'number' && quota > 0)
        ? t('usage.enabled')
        : t('usage.disabled');
    }
    return formatUsage(used, language);
  }

  function limit(): string | undefined {
    if (typeof used === 'boolean' || quotaKey === 'mfaEnabled') return undefined;
    if (quota === null || quota === true) return t('usage.of_unlimited');
    if (quota === false) return t('usage.not_included');
    const percent = formatUsagePercent(used, quota, language);
    const of = t('usage.of_quota', { quota: formatQuota(quota, language) });
    return percent ? t('usage.with_percent', { limit: of, percent }) : of;
  }

  const limitText = limit();
  return (
    <li
      className={classNames(styles.usageCard, isExceeded && styles.exceeded)}
      aria-labelledby={titleId}
      data-testid={`usage-card-${quotaKey}`}
    >
      <h3 id={titleId} className={styles.usageTitle}>
        {t(`quota:names.${quotaKey}`)}
      </h3>
      <p className={styles.usageValue}>{value()}</p>
      {limitText && <p className={styles.muted}>{limitText}</p>}
      {isExceeded && (
        <span>
          <Tag status="error">{t('usage.exceeded')}</Tag>
        </span>
      )}
    </li>
  );
}
