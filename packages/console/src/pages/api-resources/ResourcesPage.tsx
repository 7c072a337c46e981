import type { Resource } from '@gatehouse/schemas';
import { Server } from 'lucide';
import { Outlet, useNavigate } from 'react-router';
import { useResources } from '../../api/resources.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { EmptyState, NoResults } from '../../components/EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../../components/EmptyState/shows-empty-state.ts';
import { PlusIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { UserText } from '../../components/UserText.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './ApiResources.module.css';
import { toApiResource, toCreateApiResource } from './links.ts';
import { ResourceTags } from './ResourceTags.tsx';
import { formatSeconds, formatTtl } from './ttl.ts';

/** Spec §2.2 api-resources index: the tenant's APIs, searched and paged on the server; 'create' opens over it. */
export function ResourcesPage() {
  const { t, i18n } = useTranslation('api_resources');
  useDocumentTitle(t('title'));
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const resources = useResources({ page, pageSize, search });

  const columns: TableColumn<Resource>[] = [
    {
      key: 'name',
      title: t('table.name'),
      render: (resource) => (
        <span className={styles.name}>
          <UserText>{resource.name}</UserText>
        </span>
      ),
    },
    {
      key: 'tags',
      title: t('table.tags'),
      render: (resource) => <ResourceTags resource={resource} />,
    },
    {
      key: 'indicator',
      title: t('table.indicator'),
      render: (resource) => <code className={styles.indicator}>{resource.indicator}</code>,
    },
    {
      key: 'ttl',
      title: t('table.ttl'),
      render: (resource) => (
        <span title={formatSeconds(resource.accessTokenTtl, i18n.language)}>
          {formatTtl(resource.accessTokenTtl, i18n.language)}
        </span>
      ),
    },
  ];

  const createButton = (
    <PlanGate quota="resourcesLimit">
      <Button variant="primary" icon={<PlusIcon />} onClick={() => navigate(resolve(toCreateApiResource()))}>
        {t('create')}
      </Button>
    </PlanGate>
  );

  return (
    <div className={styles.page}>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={showsEmptyState(resources, Boolean(search)) ? undefined : createButton}
      />
      <Table
        aria-label={t('table.label')}
        columns={columns}
        rows={resources.data?.items}
        rowKey={(resource) => resource.id}
        rowLink={(resource) => resolve(toApiResource(resource.id))}
        isLoading={resources.isPending}
        error={resources.error}
        onRetry={() => resources.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('table.search') }}
        pagination={{ page, pageSize, totalCount: resources.data?.total ?? 0, onPageChange: setPage }}
        empty={
          search ? (
            <NoResults search={search} />
          ) : (
            <EmptyState
              icon={Server}
              title={t('table.empty')}
              description={t('table.empty_description')}
              action={createButton}
            />
          )
        }
      />
      <Outlet />
    </div>
  );
}
