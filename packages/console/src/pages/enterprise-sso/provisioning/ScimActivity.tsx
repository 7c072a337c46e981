import type { ScimConnection, ScimGroup, ScimProvisionedUser, ScimRequest } from '@gatehouse/schemas';
import { useRefreshScimActivity, useScimGroups, useScimRequests, useScimUsers } from '../../../api/scim-connections.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { NoResults } from '../../../components/EmptyState/EmptyState.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toUser } from '../../users/links.ts';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import styles from '../EnterpriseSso.module.css';

/**
 * What the directory did through the connection: its last requests (the server keeps 200, shown 20 a page), and the
 * users and groups it provisioned (searched and paged on the server). Each list keeps its page and search in the URL
 * under its own names (`requests_page`, `users_search`…), as they share the tab.
 */
export function ScimActivity({ connection }: { connection: ScimConnection }) {
  // A box each: the tab's column spaces its sections, and cards side by side would add the Card's own margin.
  return (
    <>
      <div>
        <RecentRequests connection={connection} />
      </div>
      <div>
        <ProvisionedUsers connection={connection} />
      </div>
      <div>
        <ProvisionedGroups connection={connection} />
      </div>
    </>
  );
}

function RecentRequests({ connection }: { connection: ScimConnection }) {
  const { t } = useTranslation('enterprise_sso');
  const formatTime = useDateTimeFormat();
  const list = useListParams({ prefix: 'requests' });
  const requests = useScimRequests(connection.id);
  const refresh = useRefreshScimActivity(connection);
  const all = requests.data;
  const rows = all?.slice((list.page - 1) * list.pageSize, list.page * list.pageSize);

  const columns: TableColumn<ScimRequest>[] = [
    {
      key: 'method',
      title: t('scim.requests.method'),
      width: '7rem',
      render: (request) => <code className={styles.code}>{request.method}</code>,
    },
    {
      key: 'path',
      title: t('scim.requests.path'),
      render: (request) => (
        <code className={styles.code} dir="ltr">
          {request.path}
        </code>
      ),
    },
    {
      key: 'status',
      title: t('scim.requests.status'),
      width: '7rem',
      render: (request) => <Tag status={request.status < 400 ? 'success' : 'error'}>{String(request.status)}</Tag>,
    },
    {
      key: 'scimType',
      title: t('scim.requests.scim_type'),
      render: (request) =>
        request.scimType ? (
          <code className={styles.code}>{request.scimType}</code>
        ) : (
          <span className={styles.muted}>{t('scim.requests.no_scim_type')}</span>
        ),
    },
    {
      key: 'time',
      title: t('scim.requests.time'),
      noWrap: true,
      width: '12rem',
      render: (request) => formatTime(request.createdAt),
    },
  ];

  return (
    <Card
      title={t('scim.requests.title')}
      description={t('scim.requests.description')}
      actions={
        <Button onClick={refresh} isLoading={requests.isFetching && !requests.isPending}>
          {t('scim.requests.refresh')}
        </Button>
      }
    >
      <Table
        aria-label={t('scim.requests.title')}
        columns={columns}
        rows={rows}
        rowKey={(request) => request.id}
        isLoading={requests.isPending}
        error={requests.error}
        onRetry={() => void requests.refetch()}
        empty={<p className={styles.muted}>{t('scim.requests.empty')}</p>}
        pagination={{
          page: list.page,
          pageSize: list.pageSize,
          totalCount: all?.length ?? 0,
          onPageChange: list.setPage,
          label: t('scim.requests.pages'),
        }}
      />
    </Card>
  );
}

function ProvisionedUsers({ connection }: { connection: ScimConnection }) {
  const { t } = useTranslation('enterprise_sso');
  const resolve = useTenantPath();
  const formatTime = useDateTimeFormat();
  const list = useListParams({ prefix: 'users' });
  const users = useScimUsers(connection.id, { page: list.page, pageSize: list.pageSize, search: list.search });

  const columns: TableColumn<ScimProvisionedUser>[] = [
    {
      key: 'user',
      title: t('scim.users.user'),
      render: ({ user }) => {
        const title = user.name ?? user.username ?? user.primaryEmail;
        return (
          <span className={styles.userCell}>
            <UserText>{title ?? t('scim.users.unnamed')}</UserText>
            {user.primaryEmail && user.primaryEmail !== title && (
              <span className={styles.muted}>
                <EmailText>{user.primaryEmail}</EmailText>
              </span>
            )}
          </span>
        );
      },
    },
    // Often an email address: it may wrap only before its '@' and dots.
    { key: 'userName', title: t('scim.users.user_name'), render: (row) => <EmailText>{row.userName}</EmailText> },
    {
      key: 'externalId',
      title: t('scim.users.external_id'),
      render: (row) =>
        row.externalId ? (
          <code className={styles.code}>{row.externalId}</code>
        ) : (
          <span className={styles.muted}>{t('scim.users.no_external_id')}</span>
        ),
    },
    {
      key: 'status',
      title: t('scim.users.status'),
      width: '9rem',
      render: ({ user }) =>
        user.isSuspended ? (
          <Tag status="warning">{t('scim.users.suspended')}</Tag>
        ) : (
          <Tag status="success">{t('scim.users.active')}</Tag>
        ),
    },
    {
      key: 'updated',
      title: t('scim.users.updated'),
      noWrap: true,
      width: '12rem',
      render: (row) => formatTime(row.updatedAt),
    },
  ];

  return (
    <Card title={t('scim.users.title')} description={t('scim.users.description')}>
      <Table
        aria-label={t('scim.users.title')}
        columns={columns}
        rows={users.data?.items}
        rowKey={(row) => row.user.id}
        rowLink={(row) => resolve(toUser(row.user.id))}
        isLoading={users.isPending}
        error={users.error}
        onRetry={() => void users.refetch()}
        search={{
          onSearch: list.setSearch,
          defaultValue: list.search,
          label: t('scim.users.search'),
          placeholder: t('scim.users.search'),
        }}
        empty={
          list.search ? <NoResults search={list.search} /> : <p className={styles.muted}>{t('scim.users.empty')}</p>
        }
        pagination={{
          page: list.page,
          pageSize: list.pageSize,
          totalCount: users.data?.total ?? 0,
          onPageChange: list.setPage,
          label: t('scim.users.pages'),
        }}
      />
    </Card>
  );
}

function ProvisionedGroups({ connection }: { connection: ScimConnection }) {
  const { t, i18n } = useTranslation('enterprise_sso');
  const number = new Intl.NumberFormat(i18n.language);
  const formatTime = useDateTimeFormat();
  const list = useListParams({ prefix: 'groups' });
  const groups = useScimGroups(connection.id, { page: list.page, pageSize: list.pageSize, search: list.search });

  const columns: TableColumn<ScimGroup>[] = [
    { key: 'displayName', title: t('scim.groups.name'), render: (group) => group.displayName },
    {
      key: 'externalId',
      title: t('scim.groups.external_id'),
      render: (group) =>
        group.externalId ? (
          <code className={styles.code}>{group.externalId}</code>
        ) : (
          <span className={styles.muted}>{t('scim.users.no_external_id')}</span>
        ),
    },
    {
      key: 'members',
      title: t('scim.groups.members'),
      noWrap: true,
      width: '8rem',
      render: (group) => number.format(group.memberCount),
    },
    {
      key: 'updated',
      title: t('scim.groups.updated'),
      noWrap: true,
      width: '12rem',
      render: (group) => formatTime(group.updatedAt),
    },
  ];

  return (
    <Card title={t('scim.groups.title')} description={t('scim.groups.description')}>
      <Table
        aria-label={t('scim.groups.title')}
        columns={columns}
        rows={groups.data?.items}
        rowKey={(group) => group.id}
        isLoading={groups.isPending}
        error={groups.error}
        onRetry={() => void groups.refetch()}
        search={{
          onSearch: list.setSearch,
          defaultValue: list.search,
          label: t('scim.groups.search'),
          placeholder: t('scim.groups.search'),
        }}
        empty={
          list.search ? <NoResults search={list.search} /> : <p className={styles.muted}>{t('scim.groups.empty')}</p>
        }
        pagination={{
          page: list.page,
          pageSize: list.pageSize,
          totalCount: groups.data?.total ?? 0,
          onPageChange: list.setPage,
          label: t('scim.groups.pages'),
        }}
      />
    </Card>
  );
}
