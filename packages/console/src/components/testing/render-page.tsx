import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { I18nProvider } from '../../i18n/react.tsx';
import { KitProvider } from '../KitProvider.tsx';
import { createTestI18n } from './render.tsx';

/**
 * Renders one console page at `path` (OSS routes: no tenant segment) with the UI kit, English strings and the area's
 * namespace, as the shell would: the tests of a page's field-level refusals, which need no server, run here instead
 * of in the browser (docs/testing.md). Links and navigation work inside a memory router; `router` tells where a
 * submit went.
 */
export function renderPage(
  element: ReactElement,
  { path, route = path, namespaces = {} }: { path: string; route?: string; namespaces?: Record<string, object> },
) {
  const i18n = createTestI18n();
  for (const [namespace, strings] of Object.entries(namespaces)) i18n.addResourceBundle('en', namespace, strings);
  const router = createMemoryRouter(
    [
      { path: route, element },
      { path: '*', element: null },
    ],
    {
      initialEntries: [path],
    },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}
