import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toOrganization } from './links.ts';

const withStrings = async <T>(chunk: Promise<T>): Promise<T> =>
  (await Promise.all([chunk, loadNamespace('organizations')]))[0];

/** The palette finds organizations by name in the open tenant;
 * its API module loads with the first search, not with the console's first page. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  const [{ items }] = await Promise.all([
    import('../../api/organizations.ts').then((api) => api.searchOrganizations(tenantId, query, signal)),
    loadNamespace('organizations'),
  ]);
  return items.map((organization) => ({
    id: organization.id,
    label: organization.name,
    kind: i18n.t('organizations:palette_kind'),
    to: toOrganization(organization.id),
  }));
};

/** Spec §2.2 organizations: index; create; '{id}' redirects to settings; tabs settings, members, machine-to-machine. */
export const organizationsArea: ConsoleArea = {
  sidebarItem: 'organizations',
  routes: [
    {
      path: 'organizations',
      lazy: async () => ({ Component: (await withStrings(import('./OrganizationsPage.tsx'))).OrganizationsPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({
            Component: (await import('./create/CreateOrganizationModal.tsx')).CreateOrganizationModal,
          }),
        },
      ],
    },
    {
      path: 'organizations/:organizationId',
      lazy: async () => ({
        Component: (await withStrings(import('./detail/OrganizationDetailsPage.tsx'))).OrganizationDetailsPage,
      }),
      children: [
        defaultTabRoute('settings'),
        {
          path: 'settings',
          lazy: async () => ({ Component: (await import('./detail/OrganizationSettings.tsx')).OrganizationSettings }),
        },
        {
          path: 'members',
          lazy: async () => ({ Component: (await import('./detail/OrganizationMembers.tsx')).OrganizationMembers }),
        },
        {
          path: 'machine-to-machine',
          lazy: async () => ({
            Component: (await import('./detail/OrganizationApplications.tsx')).OrganizationApplications,
          }),
        },
      ],
    },
  ],
  searchEntities,
};
