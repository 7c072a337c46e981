import { Tag } from '../../../components/Tag/Tag.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';

/** The organization roles held in the organization, one chip each. */
export function RoleChips({ roles }: { roles: readonly { id: string; name: string }[] }) {
  const { t } = useTranslation('organizations');
  if (roles.length === 0) return <span className={styles.muted}>{t('roles.no_roles')}</span>;
  return (
    <span className={styles.tags}>
      {roles.map((role) => (
        <Tag key={role.id} status="info">
          <UserText>{role.name}</UserText>
        </Tag>
      ))}
    </span>
  );
}
