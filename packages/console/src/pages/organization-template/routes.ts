import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toOrganizationRole } from './links.ts';

const withStrings = async <T>(chunk: Promise<T>): Promise<T> =>
  (await Promise.all([chunk, loadNamespace('organization_template')]))[0];

/** The palette finds organization roles by name in the open tenant;
 * its API module loads with the first search, not with the console's first page. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  const [{ items }] = await Promise.all([
    import('../../api/organization-template.ts').then((api) => api.searchOrganizationRoles(tenantId, query, signal)),
    loadNamespace('organization_template'),
  ]);
  return items.map((role) => ({
    id: role.id,
    label: role.name,
    kind: i18n.t('organization_template:palette_kind'),
    to: toOrganizationRole(role.id),
  }));
};

/**
 * Spec §2.2 organization-template: redirects to organization-roles; tabs organization-roles and
 * organization-permissions; organization-roles/{id} redirects to permissions; tabs permissions and general.
 */
export const organizationTemplateArea: ConsoleArea = {
  sidebarItem: 'organization_template',
  routes: [
    {
      path: 'organization-template',
      lazy: async () => ({
        Component: (await withStrings(import('./OrganizationTemplatePage.tsx'))).OrganizationTemplatePage,
      }),
      children: [
        defaultTabRoute('organization-roles'),
        {
          path: 'organization-roles',
          lazy: async () => ({
            Component: (await import('./roles/OrganizationRolesTab.tsx')).OrganizationRolesTab,
          }),
          children: [
            {
              path: 'create',
              lazy: async () => ({
                Component: (await import('./roles/CreateOrganizationRoleModal.tsx')).CreateOrganizationRoleModal,
              }),
            },
          ],
        },
        {
          path: 'organization-permissions',
          lazy: async () => ({
            Component: (await import('./permissions/OrganizationPermissionsTab.tsx')).OrganizationPermissionsTab,
          }),
        },
      ],
    },
    {
      path: 'organization-template/organization-roles/:organizationRoleId',
      lazy: async () => ({
        Component: (await withStrings(import('./detail/OrganizationRoleDetailsPage.tsx'))).OrganizationRoleDetailsPage,
      }),
      children: [
        defaultTabRoute('permissions'),
        {
          path: 'permissions',
          lazy: async () => ({ Component: (await import('./detail/RolePermissionsTab.tsx')).RolePermissionsTab }),
        },
        {
          path: 'general',
          lazy: async () => ({ Component: (await import('./detail/RoleGeneralTab.tsx')).RoleGeneralTab }),
        },
      ],
    },
  ],
  searchEntities,
};
