import { useTranslation } from '../i18n/react.tsx';
import styles from './Loading.module.css';

export function Loading() {
  const { t } = useTranslation();
  return (
    <p role="status" className={styles.loading}>
      {t('loading')}
    </p>
  );
}
