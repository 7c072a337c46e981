import type { AdminConsoleConfig } from '@gatehouse/schemas';
import { useUpdateAdminConsoleConfig } from '../../api/admin-console-config.ts';
import { Button } from '../../components/Button/Button.tsx';
import { CloseIcon } from '../../components/icons.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Notices.module.css';

/**
 * Spec §4 development-tenant migration notice: 'Got it' and dismiss both write readAt = now into the tenant's
 * admin-console config (keeping its other fields); the PATCH answer replaces the cached config, which hides it.
 */
export function MigrationNotice({ config }: { config: AdminConsoleConfig }) {
  const { t } = useTranslation('tenant_settings');
  const update = useUpdateAdminConsoleConfig();
  const markRead = () =>
    update
      .mutateAsync({
        developmentTenantMigrationNotification: {
          ...config.developmentTenantMigrationNotification,
          readAt: Date.now(),
        },
      })
      // The query client's error toast has said why; the notice stays for another try.
      .catch(() => undefined);
  return (
    <section className={styles.banner} aria-labelledby="migration-notice-title" data-testid="migration-notice">
      <div className={styles.text}>
        <h2 id="migration-notice-title" className={styles.title}>
          {t('notices.migration.title')}
        </h2>
        <p className={styles.description}>{t('notices.migration.description')}</p>
      </div>
      <div className={styles.actions}>
        <Button variant="primary" size="small" onClick={markRead}>
          {t('notices.migration.got_it')}
        </Button>
        <Button variant="text" size="small" aria-label={t('notices.dismiss')} onClick={markRead} icon={<CloseIcon />} />
      </div>
    </section>
  );
}
