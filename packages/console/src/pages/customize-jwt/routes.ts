import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('customize_jwt')]);
  return module;
}

/**
 * Spec §2.2 customize-jwt: index (the two scripts and the ID token's claims); '{tokenType}/{action}' the script
 * editor, with its own chunk (the editor, samples and type definitions load only there).
 */
export const customizeJwtArea: ConsoleArea = {
  sidebarItem: 'customize_jwt',
  routes: [
    {
      path: 'customize-jwt',
      lazy: async () => ({ Component: (await page(() => import('./CustomizeJwtPage.tsx'))).CustomizeJwtPage }),
    },
    {
      path: 'customize-jwt/:tokenType/:action',
      lazy: async () => ({ Component: (await page(() => import('./editor/JwtEditorPage.tsx'))).JwtEditorPage }),
    },
  ],
};
