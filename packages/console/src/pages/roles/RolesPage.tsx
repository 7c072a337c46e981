import { type RoleListItem, type RoleType, roleTypes } from '@gatehouse/schemas';
import { IdCard } from 'lucide';
import { useRoles } from '../../api/roles.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { Select } from '../../components/form/Select.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { ListPage } from '../../components/Table/ListPage.tsx';
import type { TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { toCreateRole, toRole } from './links.ts';
import styles from './Roles.module.css';
import { RoleTypeTag } from './RoleTypeTag.tsx';

const isRoleType = (value: string | null): value is RoleType => roleTypes.some((type) => type === value);

/** Spec §2.2 roles index: server-side search, a type filter and 20 rows a page, all kept in the URL. */
export function RolesPage() {
  const { t, i18n } = useTranslation('roles');
  const number = new Intl.NumberFormat(i18n.language);
  const resolve = useTenantPath();
  const list = useListParams();
  const typeParam = list.params.get('type');
  const type = isRoleType(typeParam) ? typeParam : undefined;
  const roles = useRoles({ page: list.page, pageSize: list.pageSize, search: list.search, type });

  // Counts an admin decides from (who holds a role, what it grants), next to the name; each value once per row.
  const columns: TableColumn<RoleListItem>[] = [
    { key: 'name', title: t('fields.name'), render: (role) => role.name },
    { key: 'type', title: t('fields.type'), width: '11rem', render: (role) => <RoleTypeTag type={role.type} /> },
    {
      key: 'assigned',
      title: t('list.assigned'),
      width: '9rem',
      noWrap: true,
      render: (role) =>
        role.type === 'User'
          ? t('list.users_count', { number: number.format(role.usersCount) })
          : t('list.applications_count', { number: number.format(role.applicationsCount) }),
    },
    {
      key: 'permissions',
      title: t('list.permissions'),
      width: '8rem',
      noWrap: true,
      render: (role) => number.format(role.scopesCount),
    },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (role) => role.description,
    },
  ];

  return (
    <ListPage
      title={t('title')}
      subtitle={t('subtitle')}
      create={{
        path: resolve(toCreateRole()),
        label: t('create.action'),
        aside: <PlanGate quota="userRolesLimit" />,
      }}
      list={list}
      query={roles}
      columns={columns}
      rowKey={(role) => role.id}
      rowLink={(role) => resolve(toRole(role.id))}
      empty={{ icon: IdCard, description: t('list.empty') }}
      noMatch={t('list.no_match')}
      isFiltered={type !== undefined}
      searchPlaceholder={t('list.search')}
      toolbar={
        <Select
          aria-label={t('list.type_filter')}
          className={styles.typeFilter}
          value={type ?? ''}
          onChange={(event) => list.setFilter('type', event.target.value || undefined)}
          options={[
            { value: '', label: t('list.all_types') },
            ...roleTypes.map((value) => ({ value, label: t(`types.${value}.tag`) })),
          ]}
        />
      }
    />
  );
}
