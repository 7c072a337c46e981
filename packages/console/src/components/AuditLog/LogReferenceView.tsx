import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/react.tsx';
import { useTenantPath } from '../routing/tenant-path.ts';
import { UserText } from '../UserText.tsx';
import styles from './AuditLog.module.css';
import { isEntityType, type LogReference } from './log-references.ts';

/**
 * One reference of an entry: its name, a link to its page when it has one, and what kind of thing it is when the
 * name alone does not say (a console admin, an entity's type). By id only when nothing better is known.
 */
export function LogReferenceView({ reference }: { reference: LogReference | undefined }) {
  const { t } = useTranslation('audit_logs');
  const resolve = useTenantPath();
  if (!reference) return <span className={styles.muted}>{t('references.none')}</span>;
  if (reference.kind === 'system') return <span className={styles.reference}>{t('references.system')}</span>;
  const name = reference.name ? (
    <UserText>{reference.name}</UserText>
  ) : (
    <code className={styles.id}>{reference.id}</code>
  );
  let hint: ReactNode;
  if (reference.kind === 'admin') hint = t('references.console_admin');
  else if (reference.kind === 'scim') hint = t('references.scim_connection');
  else if (reference.type && isEntityType(reference.type)) hint = t(`entity_types.${reference.type}`);
  else if (reference.type) hint = <code>{reference.type}</code>;
  return (
    <span className={styles.reference}>
      {reference.to ? (
        <Link to={resolve(reference.to)} className={styles.referenceName}>
          {name}
        </Link>
      ) : (
        <span className={styles.referenceName}>{name}</span>
      )}
      {hint && <span className={styles.hint}>{hint}</span>}
    </span>
  );
}
