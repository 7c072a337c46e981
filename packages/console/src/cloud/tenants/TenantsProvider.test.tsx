// @vitest-environment happy-dom
import type { Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { cloudKeys } from '../../api/tenants.ts';
import { type TenantsContextValue, TenantsProvider, useTenants } from './TenantsProvider.tsx';
import { tenantFixture } from './tenant-fixture.ts';

const tenant = (id: string, name = id): Tenant => tenantFixture(id, { name });

let context: TenantsContextValue | undefined;
function Probe() {
  context = useTenants();
  return <p data-testid="current">{context.currentTenant?.name ?? 'none'}</p>;
}

function setup(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The list is already loaded: the provider never fetches here (its staleTime is infinite).
  client.setQueryData(cloudKeys.tenants, [tenant('a', 'Alpha'), tenant('b', 'Beta')]);
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <TenantsProvider>
            <Outlet />
          </TenantsProvider>
        ),
        children: [
          { index: true, element: <Probe /> },
          { path: ':tenantId/*', element: <Probe /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

afterEach(() => {
  cleanup();
  context = undefined;
});

describe('TenantsProvider (spec §4 tenant context)', () => {
  it('takes the current tenant from the first path segment, and none outside a tenant', async () => {
    setup('/b/users');
    expect((await screen.findByTestId('current')).textContent).toBe('Beta');
    expect(context?.currentTenantId).toBe('b');
    expect(context?.isLoaded).toBe(true);
  });

  it('prepends, updates, removes and resets tenants locally', async () => {
    setup('/');
    expect((await screen.findByTestId('current')).textContent).toBe('none');
    await act(async () => {
      context?.prependTenant(tenant('c', 'Gamma'));
    });
    await waitFor(() => expect(context?.tenants.map((item) => item.id)).toEqual(['c', 'a', 'b']));
    await act(async () => {
      context?.updateTenant('a', { name: 'Alpha 2', isSuspended: true });
    });
    await waitFor(() => expect(context?.tenants[1]).toMatchObject({ name: 'Alpha 2', isSuspended: true }));
    await act(async () => {
      context?.removeTenant('c');
    });
    await waitFor(() => expect(context?.tenants.map((item) => item.id)).toEqual(['a', 'b']));
    await act(async () => {
      context?.resetTenants([tenant('z')]);
    });
    await waitFor(() => expect(context?.tenants.map((item) => item.id)).toEqual(['z']));
  });

  it("a tenant change invalidates cached data but 'me' and the well-known documents", async () => {
    const { client, router } = setup('/a/users');
    await screen.findByTestId('current');
    client.setQueryData(['tenant', 'a', 'users'], []);
    client.setQueryData(['me'], { id: 'u' });
    client.setQueryData(['well-known', 'console'], {});
    await act(() => router.navigate('/b/users'));
    expect(screen.getByTestId('current').textContent).toBe('Beta');
    expect(client.getQueryState(['tenant', 'a', 'users'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['me'])?.isInvalidated).toBe(false);
    expect(client.getQueryState(['well-known', 'console'])?.isInvalidated).toBe(false);
    expect(client.getQueryState(cloudKeys.tenants)?.isInvalidated).toBe(false);
  });
});
