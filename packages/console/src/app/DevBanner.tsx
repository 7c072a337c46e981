import { useTranslation } from '../i18n/react.tsx';
import styles from './DevBanner.module.css';

/** Shown only in development builds, so nobody mistakes a dev server for production. */
export function DevBanner() {
  const { t } = useTranslation();
  return <p className={styles.banner}>{t('dev_features_enabled')}</p>;
}
