import type { User } from '@gatehouse/schemas';
import { Users } from 'lucide';
import { Outlet, useNavigate } from 'react-router';
import { searchPattern } from '../../../api/management.ts';
import { useUsers } from '../../../api/users.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { EmptyState, NoResults } from '../../../components/EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../../../components/EmptyState/shows-empty-state.ts';
import { ExportMenu } from '../../../components/ExportMenu/ExportMenu.tsx';
import { Select } from '../../../components/form/Select.tsx';
import { PlusIcon, UploadIcon } from '../../../components/icons.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { toCreateUser, toImportUsers, toUser } from '../links.ts';
import { UserIdentity } from '../UserIdentity.tsx';
import styles from '../Users.module.css';
import { useDateTimeFormat } from '../use-date-time-format.ts';
import { statusFilterOf, statusFilters } from './status-filter.ts';

/**
 * Spec §2.2 users index: server-side search over id, email, phone, username and name, a status filter and 20 rows a
 * page, all kept in the URL. A search matching more than the server counts shows its total as '10,000+'.
 */
export function UsersPage() {
  const { t } = useTranslation('users');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const formatTime = useDateTimeFormat();
  const { page, pageSize, search, params, setPage, setSearch, setFilter } = useListParams();
  const status = statusFilterOf(params.get('status'));
  const isSuspended = status === 'all' ? undefined : status === 'suspended';
  const users = useUsers({ page, pageSize, search, isSuspended });
  // The export takes the list's filters (not its page): every matching user.
  const exportFilters = { search: searchPattern(search), isSuspended };

  const columns: TableColumn<User>[] = [
    { key: 'user', title: t('list.user'), render: (user) => <UserIdentity user={user} withEmail={false} /> },
    {
      key: 'contact',
      title: t('list.contact'),
      // Always the user's addresses, even when one of them is also the name shown in the first column (a user who
      // signed up by email alone): an empty contact cell read as "no email" (issue 40, item 9).
      render: (user) => (
        <span className={styles.stack}>
          {user.primaryEmail && (
            <span className={styles.ltr}>
              <EmailText>{user.primaryEmail}</EmailText>
            </span>
          )}
          {user.primaryPhone && <span className={styles.ltr}>{user.primaryPhone}</span>}
          {!user.primaryEmail && !user.primaryPhone && <span className={styles.muted}>{t('list.none')}</span>}
        </span>
      ),
    },
    {
      key: 'status',
      title: t('list.status'),
      render: (user) =>
        user.isSuspended ? (
          <Tag status="error">{t('status.suspended')}</Tag>
        ) : (
          <Tag status="success">{t('status.active')}</Tag>
        ),
    },
    {
      key: 'last_sign_in',
      noWrap: true,
      title: t('fields.last_sign_in'),
      render: (user) =>
        user.lastSignInAt === null ? <span className={styles.muted}>{t('never')}</span> : formatTime(user.lastSignInAt),
    },
    { key: 'created', title: t('fields.created'), noWrap: true, render: (user) => formatTime(user.createdAt) },
  ];

  const createButton = (
    <Button
      variant="primary"
      icon={<PlusIcon />}
      // Keeps the list's query, so closing the dialog returns to the same rows.
      onClick={() => navigate({ pathname: resolve(toCreateUser()), search: params.toString() })}
    >
      {t('create.action')}
    </Button>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <div className={styles.actions}>
            <ExportMenu apiPath="/users/export" filters={exportFilters} fileName="users" />
            <Button
              icon={<UploadIcon />}
              onClick={() => navigate({ pathname: resolve(toImportUsers()), search: params.toString() })}
            >
              {t('import.action')}
            </Button>
            {!showsEmptyState(users, Boolean(search) || status !== 'all') && createButton}
          </div>
        }
      />
      <Table
        aria-label={t('title')}
        columns={columns}
        rows={users.data?.items}
        rowKey={(user) => user.id}
        rowLink={(user) => resolve(toUser(user.id))}
        isLoading={users.isPending}
        error={users.error}
        onRetry={() => void users.refetch()}
        empty={
          search || status !== 'all' ? (
            <NoResults search={search}>{t('list.no_match')}</NoResults>
          ) : (
            <EmptyState icon={Users} description={t('list.empty')} action={createButton} />
          )
        }
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('list.search') }}
        toolbar={
          <Select
            aria-label={t('list.status_filter')}
            className={styles.filter}
            value={status}
            onChange={(event) => setFilter('status', event.target.value === 'all' ? undefined : event.target.value)}
            options={statusFilters.map((value) => ({ value, label: t(`list.status_filters.${value}`) }))}
          />
        }
        pagination={{
          page,
          pageSize,
          totalCount: users.data?.total ?? 0,
          onPageChange: setPage,
          isTotalCapped: users.data?.isTotalCapped,
          pageRowCount: users.data?.items.length,
        }}
      />
      <Outlet />
    </>
  );
}
