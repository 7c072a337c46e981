import type { Application } from '@gatehouse/schemas';
import { AppWindow } from 'lucide';
import { Link } from 'react-router';
import { useApplicationsPage } from '../../../api/applications.ts';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
import { buttonClassName } from '../../../components/Button/Button.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { EmptyState, NoResults } from '../../../components/EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../../../components/EmptyState/shows-empty-state.ts';
import { PlusIcon, SetIcon } from '../../../components/icons.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { Tabs } from '../../../components/Tabs/Tabs.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { applicationTypeIcons } from '../application-types.ts';
import { toApplication, toApplications, toCreateApplication, toThirdPartyApplications } from '../links.ts';
import styles from './ApplicationsPage.module.css';

/** Spec §2.2: the applications list, with 'third-party-applications' as a tab of it (reference `isThirdParty`). */
export function ApplicationsPage({ isThirdParty = false }: { isThirdParty?: boolean }) {
  const { t } = useTranslation('applications');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const list = useApplicationsPage({ page, pageSize, search, isThirdParty });
  const createLink = (
    <PlanGate quota="applicationsLimit">
      <Link to={resolve(toCreateApplication())} className={buttonClassName('primary')}>
        <PlusIcon />
        {t('create.title')}
      </Link>
    </PlanGate>
  );

  const columns: TableColumn<Application>[] = [
    {
      key: 'name',
      title: t('list.name'),
      render: (application) => (
        <span className={styles.name}>
          <span className={styles.appName}>
            <UserText>{application.name}</UserText>
          </span>
          {application.description && (
            <span className={styles.description}>
              <UserText>{application.description}</UserText>
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'type',
      title: t('list.type'),
      render: (application) => (
        <span className={styles.type}>
          <SetIcon icon={applicationTypeIcons[application.type]} className={styles.typeIcon} />
          {t(`types.${application.type}.name`)}
        </span>
      ),
    },
    {
      key: 'clientId',
      title: t('list.client_id'),
      render: (application) => (
        <CopyableValue value={application.id} label={t('list.copy_client_id', { name: application.name })} />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={showsEmptyState(list, Boolean(search)) ? undefined : createLink}
      />
      <Tabs
        aria-label={t('list.tabs')}
        items={[
          { to: resolve(toApplications()), label: t('list.first_party'), end: true },
          { to: resolve(toThirdPartyApplications()), label: t('list.third_party') },
        ]}
      />
      <Table
        aria-label={isThirdParty ? t('list.third_party') : t('list.first_party')}
        columns={columns}
        rows={list.data?.items}
        rowKey={(application) => application.id}
        rowLink={(application) => resolve(toApplication(application.id))}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('list.search') }}
        pagination={{ page, pageSize, totalCount: list.data?.total ?? 0, onPageChange: setPage }}
        empty={
          search ? (
            <NoResults search={search} />
          ) : (
            <EmptyState
              icon={AppWindow}
              title={isThirdParty ? t('list.empty_third_party') : t('list.empty')}
              description={isThirdParty ? t('list.empty_third_party_description') : t('list.empty_description')}
              action={createLink}
            />
          )
        }
      />
    </>
  );
}

/** Spec §2.2 'applications/third-party-applications': the same list, third-party applications only. */
export function ThirdPartyApplicationsPage() {
  return <ApplicationsPage isThirdParty />;
}
