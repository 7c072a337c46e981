import type { RouteObject } from 'react-router';
import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('connectors')]);
  return module;
}

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
};
