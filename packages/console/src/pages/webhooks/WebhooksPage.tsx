import type { Hook } from '@gatehouse/schemas';
import { Webhook } from 'lucide';
import { useHooks } from '../../api/webhooks.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { ListPage } from '../../components/Table/ListPage.tsx';
import type { TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { EnabledTag, SuccessRate } from './HookFacts.tsx';
import { toCreateHook, toHook } from './links.ts';
import styles from './Webhooks.module.css';

/** Events shown in a row before '+N more'. */
const shownEvents = 2;

/** Spec §2.2 webhooks index: name, events, endpoint, state and the last 24 hours' success rate; 20 a page. */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const resolve = useTenantPath();
  const list = useListParams();
  const hooks = useHooks({ page: list.page, pageSize: list.pageSize, search: list.search });

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
    {
      key: 'status',
      title: t('fields.status'),
      width: '8rem',
      render: (hook) => <EnabledTag enabled={hook.enabled} />,
    },
    {
      key: 'rate',
      title: t('fields.success_rate'),
      width: '11rem',
      render: (hook) => <SuccessRate stats={hook.executionStats} />,
    },
  ];

  return (
    <ListPage
      title={t('title')}
      subtitle={t('subtitle')}
      create={{
        path: resolve(toCreateHook()),
        label: t('create.action'),
        aside: <PlanGate quota="hooksLimit" />,
      }}
      list={list}
      query={hooks}
      columns={columns}
      rowKey={(hook) => hook.id}
      rowLink={(hook) => resolve(toHook(hook.id))}
      empty={{ icon: Webhook, description: t('list.empty') }}
      searchPlaceholder={t('list.search')}
    />
  );
}
