import type { User, UserGrant } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useRevokeUserGrant, useUserGrants } from '../../../../api/users.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { useConfirmedRemoval } from '../../../../components/Modal/use-confirmed-removal.ts';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import shared from '../../../../components/shared.module.css';
import { Table, type TableColumn } from '../../../../components/Table/Table.tsx';
import { Tag } from '../../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { userDisplayName } from '../../user-display.ts';
import styles from './Settings.module.css';

/** Applications link to the applications area by path: pages do not import each other's modules. */
const applicationLink = (id: string) => `applications/${encodeURIComponent(id)}/settings`;

/**
 * The third-party applications the user allowed (their remembered consents): which scopes, when; revoking one
 * (confirmed) ends what was issued under it, and the application asks for consent again at the next sign-in.
 */
export function AuthorizedAppsCard({ user }: { user: User }) {
  const { t, i18n } = useTranslation('users');
  const resolve = useTenantPath();
  const grants = useUserGrants(user.id);
  const revoke = useConfirmedRemoval(useRevokeUserGrant(user.id).mutateAsync);
  const name = userDisplayName(user) ?? user.id;
  const formatTime = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  const appName = (grant: UserGrant) => grant.application?.name ?? grant.applicationId;

  const columns: TableColumn<UserGrant>[] = [
    { key: 'application', title: t('grants.application'), render: appName },
    {
      key: 'scopes',
      title: t('grants.scopes'),
      render: (grant) => (
        <span className={styles.tags}>
          {grant.scopes.map((scope) => (
            <Tag key={scope} status="info">
              <bdi dir="ltr">{scope}</bdi>
            </Tag>
          ))}
          {Object.entries(grant.resourceScopes).flatMap(([resource, scopes]) =>
            scopes.map((scope) => (
              <Tag key={`${resource} ${scope}`}>
                <bdi dir="ltr" title={resource}>
                  {t('grants.resource_scope', { scope, resource })}
                </bdi>
              </Tag>
            )),
          )}
        </span>
      ),
    },
    { key: 'granted', title: t('grants.granted'), noWrap: true, render: (grant) => formatTime.format(grant.createdAt) },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('grants.actions')}</span>,
      className: styles.actionsCell,
      render: (grant) => (
        <Button
          variant="text"
          size="small"
          aria-label={t('grants.revoke_named', { application: appName(grant) })}
          onClick={() =>
            void revoke(grant.id, {
              title: t('grants.revoke_title'),
              content: t('grants.revoke_content', { application: appName(grant), name }),
              confirmText: t('grants.revoke'),
              done: t('grants.revoked', { application: appName(grant) }),
            })
          }
        >
          {t('grants.revoke')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('grants.title')} description={t('grants.description')}>
      <Table
        aria-label={t('grants.title')}
        columns={columns}
        rows={grants.data}
        rowKey={(grant) => grant.id}
        rowLink={(grant) => resolve(applicationLink(grant.applicationId))}
        isLoading={grants.isPending}
        error={grants.error}
        onRetry={() => void grants.refetch()}
        empty={<p className={styles.muted}>{t('grants.empty')}</p>}
      />
    </Card>
  );
}
