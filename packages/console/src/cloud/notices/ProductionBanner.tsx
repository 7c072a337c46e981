import { Button } from '../../components/Button/Button.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Notices.module.css';

/** Spec §2.11 production-tenant banner: its action opens the create-tenant dialog. */
export function ProductionBanner({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation('tenant_settings');
  return (
    <section className={styles.banner} aria-labelledby="production-banner-title" data-testid="production-banner">
      <div className={styles.text}>
        <h2 id="production-banner-title" className={styles.title}>
          {t('notices.production.title')}
        </h2>
        <p className={styles.description}>{t('notices.production.description')}</p>
      </div>
      <div className={styles.actions}>
        <Button size="small" onClick={onCreate}>
          {t('notices.production.action')}
        </Button>
      </div>
    </section>
  );
}
