// @vitest-environment happy-dom
import { freePlanQuota, proPlanQuota, type Sku, type Subscription } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import plans from '../../../i18n/locales/en/plans.json';
import quota from '../../../i18n/locales/en/quota.json';
import subscriptionStrings from '../../../i18n/locales/en/subscription.json';
import tenants from '../../../i18n/locales/en/tenants.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { type PlanCheckout, PlanOptions } from './PlanOptions.tsx';

// The API is covered by the server tests: what the plan options send, change and show is under test here.
const freeSubscription: Subscription = {
  status: 'active',
  planId: 'Free',
  currentPeriodStart: Date.UTC(2026, 10, 1),
  currentPeriodEnd: Date.UTC(2026, 11, 1),
  isEnterprisePlan: false,
};
const state: { cancels: number; failWith?: ApiError; updates: unknown[] } = { cancels: 0, updates: [] };

vi.mock('../../../api/billing.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/billing.ts')>()),
  useCancelSubscription: () => ({
    isPending: false,
    mutateAsync: async () => {
      state.cancels++;
      if (state.failWith) throw state.failWith;
      return freeSubscription;
    },
  }),
}));
vi.mock('../../../cloud/tenants/TenantsProvider.tsx', () => ({
  useTenants: () => ({ updateTenant: (id: string, patch: unknown) => state.updates.push({ id, patch }) }),
}));

const sku = (id: string, unitPrice: number, planQuota = freePlanQuota): Sku => ({
  id,
  name: id,
  type: 'Basic',
  unitPrice,
  quota: planQuota,
  createdAt: 1,
  updatedAt: 1,
});
const skus = [sku('Free', 0), sku('Pro202411', 1600, proPlanQuota)];

function setup(currentPlanId: string, checkout: Partial<PlanCheckout> = {}) {
  const started: { skuId: string; isDowngrade: boolean }[] = [];
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'subscription', subscriptionStrings);
  i18n.addResourceBundle('en', 'quota', quota);
  i18n.addResourceBundle('en', 'tenants', tenants);
  i18n.addResourceBundle('en', 'plans', plans);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <PlanOptions
            tenantId="t1"
            currentPlanId={currentPlanId}
            skus={skus}
            checkout={{
              processingSkuId: undefined,
              start: async (skuId, isDowngrade) => {
                started.push({ skuId, isDowngrade });
              },
              ...checkout,
            }}
          />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return started;
}

beforeEach(() => {
  state.cancels = 0;
  state.updates = [];
  state.failWith = undefined;
});

describe('plan options (spec §4 plan order)', () => {
  it('upgrades Free to Pro through checkout and marks the current plan', async () => {
    const started = setup('Free');
    const free = screen.getAllByRole('listitem').find((item) => item.textContent?.startsWith('Free'));
    expect(free?.textContent).toContain('Current plan');
    expect(screen.queryByRole('button', { name: 'Downgrade to Free' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    expect(started).toEqual([{ skuId: 'Pro202411', isDowngrade: false }]);
  });

  it("lists each plan's features as the plan picker does (issue 26: one list, one catalogue)", () => {
    setup('Free');
    const free = screen.getByRole('list', { name: 'Features of Free' });
    expect(
      within(free)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Monthly active users: \u206850,000\u2069',
      'Applications: \u20683\u2069',
      'Machine-to-machine apps: \u20681\u2069',
      'User roles: \u20681\u2069',
      'Permissions per API resource: \u20681\u2069',
      'Audit log retention in days: \u20683\u2069',
    ]);
    const pro = screen.getByRole('list', { name: 'Features of Pro' });
    expect(within(pro).getByText('Monthly active users: \u2068Unlimited\u2069')).toBeTruthy();
    expect(within(pro).getByText('Organizations')).toBeTruthy();
  });

  it('waits on every plan button while a checkout starts', () => {
    setup('Free', { processingSkuId: 'Pro202411' });
    expect((screen.getByRole('button', { name: 'Upgrade to Pro' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('downgrades to Free only after the confirmation, then updates the tenant and says so', async () => {
    const started = setup('Pro202411');
    await userEvent.click(screen.getByRole('button', { name: 'Downgrade to Free' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(state.cancels).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Downgrade to Free' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Downgrade' }));
    expect(state.cancels).toBe(1);
    expect(state.updates).toEqual([{ id: 't1', patch: { planId: 'Free', subscription: freeSubscription } }]);
    expect(await screen.findByText('Plan downgraded to “Free”.')).toBeTruthy();
    expect(started).toEqual([]); // no checkout for Free
  });

  it('lists the blocking quotas when the usage does not fit Free', async () => {
    state.failWith = new ApiError(422, 'Usage does not fit.', 'subscription.downgrade_blocked', {
      planId: 'Free',
      quota: { applicationsLimit: { limit: 3, usage: 4 } },
    });
    setup('Pro202411');
    await userEvent.click(screen.getByRole('button', { name: 'Downgrade to Free' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Downgrade' }));
    const blocked = await screen.findByRole('alertdialog', { name: 'This tenant does not fit the Free plan' });
    expect(within(blocked).getByRole('listitem').textContent).toContain('Applications');
    expect(state.updates).toEqual([]);
    await userEvent.click(within(blocked).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
