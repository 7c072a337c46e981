import type { Hook } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { useHooks } from '../../api/webhooks.ts';
import { Button } from '../../components/Button/Button.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { EnabledTag, SuccessRate } from './HookFacts.tsx';
import { toCreateHook, toHook } from './links.ts';
import styles from './Webhooks.module.css';

/** Events shown in a row before '+N more'. */
const shownEvents = 2;

/** Spec §2.2 webhooks index: name, events, endpoint, state and the last 24 hours' success rate; 20 a page. */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const { page, pageSize, search, params, setPage, setSearch } = useListParams();
  const hooks = useHooks({ page, pageSize, search });

  const columns: TableColumn<Hook>[] = [
    { key: 'name', title: t('fields.name'), render: (hook) => hook.name },
    {
      key: 'events',
      title: t('fields.events'),
      render: (hook) => (
        <span className={styles.eventsCell}>
          {hook.events.slice(0, shownEvents).map((event) => (
            <code key={event} className={styles.code} dir="ltr">
              {event}
            </code>
          ))}
          {hook.events.length > shownEvents && (
            <span className={styles.muted}>{t('list.more', { number: hook.events.length - shownEvents })}</span>
          )}
        </span>
      ),
    },
    {
      key: 'url',
      title: t('fields.url'),
      render: (hook) => (
        <code className={styles.endpoint} dir="ltr">
          {hook.config.url}
        </code>
      ),
    },
    { key: 'status', title: t('fields.status'), render: (hook) => <EnabledTag enabled={hook.enabled} /> },
    { key: 'rate', title: t('fields.success_rate'), render: (hook) => <SuccessRate stats={hook.executionStats} /> },
  ];

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => navigate({ pathname: resolve(toCreateHook()), search: params.toString() })}
          >
            {t('create.action')}
          </Button>
        }
      />
      <Table
        aria-label={t('title')}
        columns={columns}
        rows={hooks.data?.items}
        rowKey={(hook) => hook.id}
        rowLink={(hook) => resolve(toHook(hook.id))}
        isLoading={hooks.isPending}
        error={hooks.error}
        onRetry={() => void hooks.refetch()}
        empty={<p className={styles.empty}>{search ? t('list.no_match') : t('list.empty')}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('list.search') }}
        pagination={{ page, pageSize, totalCount: hooks.data?.total ?? 0, onPageChange: setPage }}
      />
      <Outlet />
    </>
  );
}
