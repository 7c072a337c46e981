import type { RouteObject } from 'react-router';
import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('connectors')]);
  return module;
}

/** The palette finds the tenant's connectors by display name, provider ('smtp', 'google') or factory name. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  // Loaded on first use, so the shell's start-up chunk does not carry this area's API code.
  const { searchConnectors } = await import('./palette-search.ts');
  const [found] = await Promise.all([
    searchConnectors(tenantId, query, signal, i18n.language),
    loadNamespace('connectors'),
  ]);
  const kind = i18n.t('connectors:palette_kind');
  return found.map((connector) => ({ ...connector, kind }));
};

/** '{tab}/create/{createType}': the factories of a type, a dialog over the tab. */
const createRoute: RouteObject = {
  path: 'create/:createType',
  lazy: async () => ({ Component: (await import('./create/CreateConnectorModal.tsx')).CreateConnectorModal }),
};

/**
 * Spec §2.2 connectors: index → passwordless; '{tab}' passwordless or social; '{tab}/create/{createType}';
 * '{tab}/guide/{factoryId}'; '{tab}/{connectorId}' with the tabs connection (default) and experience.
 */
export const connectorsArea: ConsoleArea = {
  sidebarItem: 'connectors',
  routes: [
    {
      path: 'connectors',
      lazy: async () => ({ Component: (await page(() => import('./ConnectorsPage.tsx'))).ConnectorsPage }),
      children: [
        defaultTabRoute('passwordless'),
        {
          path: 'passwordless',
          lazy: async () => ({ Component: (await import('./PasswordlessTab.tsx')).PasswordlessTab }),
          children: [createRoute],
        },
        {
          path: 'social',
          lazy: async () => ({ Component: (await import('./SocialTab.tsx')).SocialTab }),
          children: [createRoute],
        },
      ],
    },
    {
      path: 'connectors/:tab/guide/:factoryId',
      lazy: async () => ({ Component: (await page(() => import('./create/GuidePage.tsx'))).GuidePage }),
    },
    {
      path: 'connectors/:tab/:connectorId',
      lazy: async () => ({
        Component: (await page(() => import('./detail/ConnectorDetailsPage.tsx'))).ConnectorDetailsPage,
      }),
      children: [
        defaultTabRoute('connection'),
        {
          path: 'connection',
          lazy: async () => ({ Component: (await import('./detail/ConnectionTab.tsx')).ConnectionTab }),
        },
        {
          path: 'experience',
          lazy: async () => ({ Component: (await import('./detail/ExperienceTab.tsx')).ExperienceTab }),
        },
      ],
    },
  ],
  searchEntities,
};
