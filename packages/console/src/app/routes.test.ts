import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ConsoleArea } from '../components/routing/area.ts';
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

async function open(edition: Edition, path: string, dev: readonly RouteObject[] = [], areas?: ConsoleArea[]) {
  const router = createMemoryRouter(buildRoutes({ edition, devRoutes: dev, areas }), {
    basename: '/console',
    initialEntries: [`/console${path}`],
  });
  const state = await settled(router);
  router.dispose();
  const errors = Object.values(state.errors ?? {});
  return {
    path: state.location.pathname,
    action: state.historyAction,
    route: state.matches.at(-1)?.route.path,
    errors,
  };
}

const Page = () => null;
const area = (sidebarItem: ConsoleArea['sidebarItem'], path: string, editions?: ConsoleArea['editions']) => ({
  sidebarItem,
  editions,
  routes: [{ path, Component: Page }],
});

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
    expect(dev.errors).toHaveLength(1);
  });
});

describe('routes from registered areas', () => {
  it('mounts each area and lands on the first of them in sidebar order, not registration order', async () => {
    const areas = [area('webhooks', 'webhooks'), area('applications', 'applications')];
    expect(await open('oss', '/', [], areas)).toMatchObject({ path: '/console/applications' });
    expect(await open('oss', '/webhooks', [], areas)).toMatchObject({ route: 'webhooks' });
  });

  it('leaves out the areas of the other edition', async () => {
    const areas = [area('tenant_settings', 'tenant-settings', ['cloud']), area('roles', 'roles')];
    expect(await open('oss', '/tenant-settings', [], areas)).toMatchObject({ route: '*' });
    expect(await open('oss', '/', [], areas)).toMatchObject({ path: '/console/roles' });
    expect(await open('cloud', '/t-1', [], areas)).toMatchObject({ path: '/console/t-1/roles' });
    expect(await open('cloud', '/t-1/tenant-settings', [], areas)).toMatchObject({ route: 'tenant-settings' });
  });

  it("fails with the spec's error when no sidebar item exists", async () => {
    const { errors } = await open('oss', '/', [], []);
    expect(errors).toEqual([new Error('First sidebar item not found')]);
  });
});

describe('cloud routes', () => {
  it("keeps '/' on the signed-in index, which decides from the account and its tenants (spec §2.4)", async () => {
    const index = await open('cloud', '/');
    expect(index.path).toBe('/console/');
    expect(index.errors).toEqual([]);
  });

  it('has the tenant-less onboarding and invitation acceptance routes', async () => {
    expect(await open('cloud', '/onboarding')).toMatchObject({ path: '/console/onboarding/create-tenant' });
    expect(await open('cloud', '/accept/inv-1')).toMatchObject({ route: 'accept/:invitationId' });
  });

  it('has the tenant-less checkout callback, never taken for a tenant id (spec §2.8)', async () => {
    expect(await open('cloud', '/checkout-success-callback?state=aB3xY9')).toMatchObject({
      route: 'checkout-success-callback',
    });
  });

  it('has the tenant-less social linking landing page, never taken for a tenant id (spec §2.1)', async () => {
    expect(await open('cloud', '/handle-social?code=c&state=aB3dE6gH')).toMatchObject({ route: 'handle-social' });
    expect((await open('oss', '/handle-social')).route).toBe('*');
  });

  it.each(['oss', 'cloud'] as const)('has the tenant-less social demo callback in %s (spec §2.11)', async (edition) => {
    expect(await open(edition, '/social-demo-callback?code=c')).toMatchObject({ route: 'social-demo-callback' });
  });

  it('keeps the tenant id in the path', async () => {
    expect(await open('cloud', '/t-1')).toMatchObject({ path: '/console/t-1/get-started', action: 'REPLACE' });
    expect(await open('cloud', '/t-1/get-started')).toMatchObject({ route: 'get-started' });
    expect(await open('cloud', '/t-1/nope')).toMatchObject({ route: '*' });
  });
});
