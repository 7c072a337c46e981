import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../ApiResources.module.css';

/** Why nothing of the built-in Management API can be changed here, and how it is used instead. */
export function BuiltInNotice() {
  const { t } = useTranslation('api_resources');
  return (
    <div className={styles.notice} role="note">
      <p className={styles.noticeTitle}>{t('built_in.title')}</p>
      <p className={styles.noticeText}>{t('built_in.description')}</p>
    </div>
  );
}
