import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toRole } from './links.ts';

const withStrings = async <T>(chunk: Promise<T>): Promise<T> => (await Promise.all([chunk, loadNamespace('roles')]))[0];

/** The palette finds roles by name in the open tenant (no tenant id in OSS);
 * its API module loads with the first search, not with the console's first page. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  const [{ items }] = await Promise.all([
    import('../../api/roles.ts').then((api) => api.searchRoles(tenantId, query, signal)),
    loadNamespace('roles'),
  ]);
  return items.map((role) => ({
    id: role.id,
    label: role.name,
    kind: i18n.t('roles:palette_kind'),
    to: toRole(role.id),
  }));
};

/** Spec §2.2 roles: index; create; '{id}' redirects to permissions; tabs permissions, users, m2m apps, general. */
export const rolesArea: ConsoleArea = {
  sidebarItem: 'roles',
  routes: [
    {
      path: 'roles',
      lazy: async () => ({ Component: (await withStrings(import('./RolesPage.tsx'))).RolesPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({ Component: (await import('./create/CreateRoleModal.tsx')).CreateRoleModal }),
        },
      ],
    },
    {
      path: 'roles/:roleId',
      lazy: async () => ({ Component: (await withStrings(import('./detail/RoleDetailsPage.tsx'))).RoleDetailsPage }),
      children: [
        defaultTabRoute('permissions'),
        {
          path: 'permissions',
          lazy: async () => ({ Component: (await import('./detail/RolePermissions.tsx')).RolePermissions }),
        },
        { path: 'users', lazy: async () => ({ Component: (await import('./detail/RoleUsers.tsx')).RoleUsers }) },
        {
          path: 'machine-to-machine-apps',
          lazy: async () => ({ Component: (await import('./detail/RoleApplications.tsx')).RoleApplications }),
        },
        { path: 'general', lazy: async () => ({ Component: (await import('./detail/RoleGeneral.tsx')).RoleGeneral }) },
      ],
    },
  ],
  searchEntities,
};
