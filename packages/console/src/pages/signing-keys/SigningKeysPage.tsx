import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { KeysCard } from './KeysCard.tsx';
import { SessionCard } from './SessionCard.tsx';
import styles from './SigningKeys.module.css';

/**
 * Spec §2.2 signing-keys: the tenant's OIDC private signing keys and cookie keys, each with rotation (the new key is
 * current, the one it replaces stays as the previous key) and deletion of the previous key; beside them the lifetime
 * of the sign-in sessions those keys protect (the reference keeps OIDC session settings on this page too).
 */
export function SigningKeysPage() {
  const { t } = useTranslation('signing_keys');
  useDocumentTitle(t('title'));
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <KeysCard keyType="private-keys" />
      <KeysCard keyType="cookie-keys" />
      <SessionCard />
    </div>
  );
}
