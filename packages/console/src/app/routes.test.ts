import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { devRoutes } from './dev-routes.ts';
import type { Edition } from './edition.ts';
import { buildRoutes } from './routes.ts';

// Routes only: the translations are not under test and their loader needs a browser document.
vi.mock('../i18n/index.ts', () => ({ loadNamespace: async () => undefined }));
// The route table is under test, not the OIDC session: every visitor counts as signed in here.
vi.mock('../auth/require-session.ts', () => ({ requireSession: async () => null }));

type Router = ReturnType<typeof createMemoryRouter>;

function settled(router: Router): Promise<Router['state']> {
  const done = (state: Router['state']) => state.initialized && state.navigation.state === 'idle';
  if (done(router.state)) return Promise.resolve(router.state);
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!done(state)) return;
      unsubscribe();
      resolve(state);
    });
  });
}

async function open(edition: Edition, path: string, dev: readonly RouteObject[] = []) {
  const router = createMemoryRouter(buildRoutes({ edition, devRoutes: dev }), {
    basename: '/console',
    initialEntries: [`/console${path}`],
  });
  const state = await settled(router);
  router.dispose();
  return { path: state.location.pathname, action: state.historyAction, route: state.matches.at(-1)?.route.path, state };
}

describe('OSS routes', () => {
  it('replaces the tenant index with the first sidebar item', async () => {
    expect(await open('oss', '/')).toMatchObject({ path: '/console/get-started', action: 'REPLACE' });
  });

  it('shows page-not-found for unknown paths', async () => {
    expect(await open('oss', '/no/such/page')).toMatchObject({ path: '/console/no/such/page', route: '*' });
  });

  it('has the import-error route only when dev routes are given', async () => {
    expect((await open('oss', '/__internal__/import-error')).route).toBe('*');
    const dev = await open('oss', '/__internal__/import-error', devRoutes);
    expect(Object.values(dev.state.errors ?? {})).toHaveLength(1);
  });
});

describe('cloud routes', () => {
  it("sends '/' to the default tenant's first sidebar item", async () => {
    expect(await open('cloud', '/')).toMatchObject({ path: '/console/default/get-started' });
  });

  it('keeps the tenant id in the path', async () => {
    expect(await open('cloud', '/t-1')).toMatchObject({ path: '/console/t-1/get-started', action: 'REPLACE' });
    expect(await open('cloud', '/t-1/get-started')).toMatchObject({ route: 'get-started' });
    expect(await open('cloud', '/t-1/nope')).toMatchObject({ route: '*' });
  });
});
