import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearchContext } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toApiResource } from './links.ts';

/** Each page chunk downloads beside the area's strings, so no page suspends on translations. */
const withStrings = <T>(page: Promise<T>) =>
  Promise.all([page, loadNamespace('api_resources')]).then(([module]) => module);

/** Spec §2.2 api-resources: index; create (a dialog over the index); {id}/guide/{guideId}; {id}/* with two tabs. */
export const apiResourcesArea: ConsoleArea = {
  sidebarItem: 'api_resources',
  routes: [
    {
      path: 'api-resources',
      lazy: async () => ({ Component: (await withStrings(import('./ResourcesPage.tsx'))).ResourcesPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({ Component: (await import('./CreateResourceModal.tsx')).CreateResourceModal }),
        },
      ],
    },
    {
      path: 'api-resources/:id/guide/:guideId',
      lazy: async () => ({ Component: (await withStrings(import('./guide/GuidePage.tsx'))).GuidePage }),
    },
    {
      path: 'api-resources/:id',
      lazy: async () => ({
        Component: (await withStrings(import('./detail/ResourceDetailPage.tsx'))).ResourceDetailPage,
      }),
      children: [
        defaultTabRoute('permissions'),
        {
          path: 'permissions',
          lazy: async () => ({ Component: (await import('./detail/PermissionsTab.tsx')).PermissionsTab }),
        },
        {
          path: 'general',
          lazy: async () => ({ Component: (await import('./detail/GeneralTab.tsx')).GeneralTab }),
        },
      ],
    },
  ],
  searchEntities: async (query: string, signal: AbortSignal, context?: EntitySearchContext) => {
    // Loaded on first use only: the shell's first page does not need the area's API code.
    const [{ searchResources }] = await Promise.all([import('../../api/resources.ts'), loadNamespace('api_resources')]);
    const found = await searchResources(context?.tenantId, query, signal);
    const kind = i18n.t('palette_kind', { ns: 'api_resources' });
    return found.map((resource) => ({ id: resource.id, label: resource.name, kind, to: toApiResource(resource.id) }));
  },
};
