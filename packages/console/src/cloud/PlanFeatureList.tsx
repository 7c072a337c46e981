import type { Quota } from '@gatehouse/schemas';
import { CheckIcon } from '../components/icons.tsx';
import { useTranslation } from '../i18n/react.tsx';
import styles from './PlanFeatureList.module.css';
import { type PlanFeature, planFeatures } from './plan-features.ts';

/**
 * A plan's features as the plan picker and the subscription page both show them (issue 26: one list, one catalogue):
 * the named limits with their values, then the gated features the plan includes, each with a check.
 */
export function PlanFeatureList({ quota, label }: { quota: Quota; label: string }) {
  return (
    <ul className={styles.features} aria-label={label}>
      {planFeatures(quota).map((feature) => (
        <li key={feature.key} className={styles.feature}>
          <CheckIcon aria-hidden="true" className={styles.check} />
          <FeatureText feature={feature} />
        </li>
      ))}
    </ul>
  );
}

function FeatureText({ feature }: { feature: PlanFeature }) {
  const { t, i18n } = useTranslation('plans');
  if (!('limit' in feature)) return <span>{t(`feature.${feature.key}`)}</span>;
  const value =
    feature.limit === 'unlimited' ? t('feature.unlimited') : new Intl.NumberFormat(i18n.language).format(feature.limit);
  // Isolated (FSI…PDI), so in Arabic a number after a Latin word ('API: 1') keeps its place instead of joining it.
  return <span>{t(`feature.${feature.key}`, { value: `\u2068${value}\u2069` })}</span>;
}
