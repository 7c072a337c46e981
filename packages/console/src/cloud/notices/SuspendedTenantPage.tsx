import { externalLinks } from '../../app/external-links.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Notices.module.css';

/** Spec §2.4: a suspended tenant sees this instead of the console (and no other notice). */
export function SuspendedTenantPage() {
  const { t } = useTranslation('tenant_settings');
  useDocumentTitle(t('notices.suspended.title'));
  return (
    <section className={styles.suspended} aria-labelledby="suspended-tenant-title" data-testid="suspended-tenant">
      <h1 id="suspended-tenant-title">{t('notices.suspended.title')}</h1>
      <p>{t('notices.suspended.description_1')}</p>
      <p>{t('notices.suspended.description_2')}</p>
      {externalLinks.supportEmail && (
        <a href={`mailto:${externalLinks.supportEmail}`}>{t('notices.suspended.contact_us')}</a>
      )}
    </section>
  );
}
