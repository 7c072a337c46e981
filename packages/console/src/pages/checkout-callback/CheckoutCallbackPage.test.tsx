// @vitest-environment happy-dom
import { CHECKOUT_SESSION_STORAGE_KEY, type CheckoutSession, type Subscription, type Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cloudKeys } from '../../api/tenants.ts';
import { TenantsProvider } from '../../cloud/tenants/TenantsProvider.tsx';
import { tenantFixture } from '../../cloud/tenants/tenant-fixture.ts';
import { ToastProvider } from '../../components/Toast/ToastProvider.tsx';
import common from '../../i18n/locales/en/common.json';
import components from '../../i18n/locales/en/components.json';
import plans from '../../i18n/locales/en/plans.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { CheckoutCallbackPage } from './CheckoutCallbackPage.tsx';

const api = vi.hoisted(() => ({
  session: undefined as CheckoutSession | undefined,
  subscription: undefined as Subscription | undefined,
  tenants: [] as Tenant[],
}));
vi.mock('../../api/billing.ts', async (original) => ({
  ...(await original<typeof import('../../api/billing.ts')>()),
  fetchCheckoutSession: async () => api.session,
  fetchSubscription: async () => api.subscription,
}));
vi.mock('../../api/tenants.ts', async (original) => ({
  ...(await original<typeof import('../../api/tenants.ts')>()),
  fetchTenants: async () => api.tenants,
}));

const proSubscription: Subscription = {
  status: 'active',
  planId: 'Pro202411',
  currentPeriodStart: 0,
  currentPeriodEnd: 1,
  isEnterprisePlan: false,
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function setup(url: string, initialTenants: Tenant[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(cloudKeys.tenants, initialTenants);
  const i18n = new Translations({ language: 'en', resources: { en: { common, components, plans } } });
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
          { path: 'checkout-success-callback', element: <CheckoutCallbackPage /> },
          { index: true, element: <Where /> },
          { path: '*', element: <Where /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { client };
}

const store = (value: object) => sessionStorage.setItem(CHECKOUT_SESSION_STORAGE_KEY, JSON.stringify(value));

beforeEach(() => {
  sessionStorage.clear();
  api.session = undefined;
  api.subscription = undefined;
  api.tenants = [];
});
afterEach(cleanup);

describe('CheckoutCallbackPage (spec §2.8, §4 checkout)', () => {
  it('a paid new tenant: success toast naming the plan, the list read again, into the tenant, storage cleared', async () => {
    store({ state: 'aB3xY9', sessionId: 'cs_1' });
    api.session = { id: 'cs_1', status: 'complete', tenantId: 'tnew', skuId: 'Pro202411', createdAt: 0 };
    api.subscription = proSubscription;
    const created = tenantFixture('tnew', { tag: 'production', planId: 'Pro202411', subscription: proSubscription });
    api.tenants = [created, tenantFixture('t1')];
    const { client } = setup('/checkout-success-callback?state=aB3xY9', [tenantFixture('t1')]);

    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect((await screen.findByTestId('where')).textContent).toBe('/tnew');
    expect(screen.getByText('Plan upgraded to “Pro”.')).toBeTruthy();
    expect(client.getQueryData<Tenant[]>(cloudKeys.tenants)?.map((tenant) => tenant.id)).toEqual(['tnew', 't1']);
    expect(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
  });

  it('an existing tenant returns to the stored callback page with the downgrade wording', async () => {
    store({ state: 'aB3xY9', sessionId: 'cs_2', callbackPage: '/t1/tenant-settings/subscription', isDowngrade: true });
    const free: Subscription = { ...proSubscription, planId: 'Free' };
    api.session = { id: 'cs_2', status: 'complete', tenantId: 't1', skuId: 'Free', createdAt: 0 };
    api.subscription = free;
    api.tenants = [tenantFixture('t1', { tag: 'production', planId: 'Free', subscription: free })];
    const { client } = setup('/checkout-success-callback?state=aB3xY9', [
      tenantFixture('t1', { tag: 'production', planId: 'Pro202411', subscription: proSubscription }),
    ]);

    expect((await screen.findByTestId('where')).textContent).toBe('/t1/tenant-settings/subscription');
    expect(screen.getByText('Plan downgraded to “Free”.')).toBeTruthy();
    expect(client.getQueryData<Tenant[]>(cloudKeys.tenants)?.[0]?.planId).toBe('Free');
  });

  it('a cancelled session goes back without a toast and clears the stored copy', async () => {
    store({ state: 'aB3xY9', sessionId: 'cs_3', callbackPage: '/t1/tenant-settings/subscription' });
    api.session = { id: 'cs_3', status: 'canceled', tenantId: null, skuId: 'Pro202411', createdAt: 0 };
    setup('/checkout-success-callback?state=aB3xY9', []);

    expect((await screen.findByTestId('where')).textContent).toBe('/t1/tenant-settings/subscription');
    expect(screen.queryByText(/^Plan (up|down)graded/)).toBeNull();
    expect(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a foreign state goes to the root and keeps the stored copy; an unsafe callback page is not followed', async () => {
    store({ state: 'aB3xY9', sessionId: 'cs_4', callbackPage: '//evil.example' });
    setup('/checkout-success-callback?state=Forged', []);
    expect((await screen.findByTestId('where')).textContent).toBe('/');
    expect(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).not.toBeNull();

    cleanup();
    api.session = { id: 'cs_4', status: 'expired', tenantId: null, skuId: 'Pro202411', createdAt: 0 };
    setup('/checkout-success-callback?state=aB3xY9', []);
    expect((await screen.findByTestId('where')).textContent).toBe('/');
  });
});
