import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toApplication } from './links.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  // The logs tab's entries are worded by the audit-log strings (components/AuditLog).
  const [module] = await Promise.all([load(), loadNamespace('applications'), loadNamespace('audit_logs')]);
  return module;
}

/** Spec §2.2 applications: list (and its third-party tab), create, guides, detail tabs and log entries. */
export const applicationsArea: ConsoleArea = {
  sidebarItem: 'applications',
  routes: [
    {
      path: 'applications',
      lazy: async () => ({ Component: (await page(() => import('./list/ApplicationsPage.tsx'))).ApplicationsPage }),
    },
    {
      path: 'applications/third-party-applications',
      lazy: async () => ({
        Component: (await page(() => import('./list/ApplicationsPage.tsx'))).ThirdPartyApplicationsPage,
      }),
    },
    {
      path: 'applications/create',
      lazy: async () => ({
        Component: (await page(() => import('./create/CreateApplicationPage.tsx'))).CreateApplicationPage,
      }),
    },
    {
      path: 'applications/:id/guide/:guideId',
      lazy: async () => ({ Component: (await page(() => import('./guides/GuidePage.tsx'))).GuidePage }),
    },
    {
      path: 'applications/:id/logs/:logId',
      lazy: async () => ({ Component: (await page(() => import('./detail/logs/LogDetailsPage.tsx'))).LogDetailsPage }),
    },
    {
      path: 'applications/:id',
      lazy: async () => ({
        Component: (await page(() => import('./detail/ApplicationDetailPage.tsx'))).ApplicationDetailPage,
      }),
      children: [
        defaultTabRoute('settings'),
        {
          path: 'settings',
          lazy: async () => ({ Component: (await import('./detail/settings/SettingsTab.tsx')).SettingsTab }),
        },
        {
          path: 'branding',
          lazy: async () => ({ Component: (await import('./detail/branding/BrandingTab.tsx')).BrandingTab }),
        },
        {
          path: 'roles',
          lazy: async () => ({ Component: (await import('./detail/roles/RolesTab.tsx')).RolesTab }),
        },
        {
          path: 'logs',
          lazy: async () => ({ Component: (await import('./detail/logs/LogsTab.tsx')).LogsTab }),
        },
        {
          path: 'organizations',
          lazy: async () => ({
            Component: (await import('./detail/organizations/OrganizationsTab.tsx')).OrganizationsTab,
          }),
        },
      ],
    },
  ],
  // The command palette finds applications by name or client ID on the server, a few at a time.
  searchEntities: async (query, signal, context) => {
    // Loaded on first use, so the shell's start-up chunk does not carry this area's API code.
    const { searchApplications } = await import('../../api/applications.ts');
    const [{ items }] = await Promise.all([
      searchApplications(context.tenantId, query, signal),
      loadNamespace('applications'),
    ]);
    return items.map((application) => ({
      id: application.id,
      label: application.name,
      kind: i18n.t('applications:palette.kind'),
      to: toApplication(application.id),
    }));
  },
};
