import type { User } from '@gatehouse/schemas';
import { Card } from '../../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../../components/CopyButton/CopyButton.tsx';
import { Tag } from '../../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../use-date-time-format.ts';
import styles from './Settings.module.css';

/** What the admin reads but does not edit here: id, dates, password and suspension state. */
export function SignInFactsCard({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const formatTime = useDateTimeFormat();
  const facts = [
    { key: 'id', label: t('fields.id'), value: <CopyableValue value={user.id} label={t('settings.copy_id')} /> },
    { key: 'created', label: t('fields.created'), value: formatTime(user.createdAt) },
    { key: 'updated', label: t('fields.updated'), value: formatTime(user.updatedAt) },
    {
      key: 'last_sign_in',
      label: t('fields.last_sign_in'),
      value: user.lastSignInAt === null ? t('never') : formatTime(user.lastSignInAt),
    },
    {
      key: 'password',
      label: t('fields.password'),
      value: user.hasPassword ? t('settings.has_password') : t('settings.no_password'),
    },
    {
      key: 'status',
      label: t('list.status'),
      value: user.isSuspended ? (
        <Tag status="error">{t('status.suspended')}</Tag>
      ) : (
        <Tag status="success">{t('status.active')}</Tag>
      ),
    },
  ];
  return (
    <Card title={t('settings.facts')} description={t('settings.facts_description')}>
      <dl className={styles.facts}>
        {facts.map((fact) => (
          <div key={fact.key} className={styles.fact}>
            <dt className={styles.factLabel}>{fact.label}</dt>
            <dd className={styles.factValue}>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
