// @vitest-environment happy-dom
import { basicPlans, MAX_FREE_TENANTS, type Sku, type Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billingKeys } from '../../api/billing.ts';
import { cloudKeys } from '../../api/tenants.ts';
import { ToastProvider } from '../../components/Toast/ToastProvider.tsx';
import common from '../../i18n/locales/en/common.json';
import components from '../../i18n/locales/en/components.json';
import plans from '../../i18n/locales/en/plans.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { TenantsProvider } from '../tenants/TenantsProvider.tsx';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { PlanPickerModal } from './PlanPickerModal.tsx';

/** The build's external links (VITE_*), set per test: unset by default, as in the default build. */
const links = vi.hoisted(() => ({ pricing: undefined as string | undefined }));
vi.mock('../../app/external-links.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../app/external-links.ts')>()),
  externalLinks: links,
}));

const checkout = vi.hoisted(() => ({
  start: vi.fn<(...args: unknown[]) => Promise<void>>(),
  processingSkuId: undefined as string | undefined,
}));
vi.mock('../checkout/use-checkout.ts', () => ({ useCheckout: () => checkout }));

const skus: Sku[] = basicPlans.map((plan) => ({
  id: plan.id,
  name: plan.id,
  type: 'Basic',
  unitPrice: plan.unitPrice,
  quota: plan.quota,
  createdAt: 0,
  updatedAt: 0,
}));

function setup(tenants: Tenant[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Both lists are already loaded, so nothing is fetched.
  client.setQueryData(cloudKeys.tenants, tenants);
  client.setQueryData(billingKeys.skus('Basic'), skus);
  const i18n = new Translations({ language: 'en', resources: { en: { common, components, plans } } });
  const onClose = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <MemoryRouter>
            <TenantsProvider>
              <PlanPickerModal tenant={{ name: 'Acme', regionName: 'US' }} onClose={onClose} onCreated={vi.fn()} />
            </TenantsProvider>
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { onClose };
}

const card = (id: string) => screen.getByTestId(`plan-${id}`);
const select = (id: string, plan: string) => within(card(id)).getByRole('button', { name: `Select ${plan}` });

beforeEach(() => {
  checkout.start.mockReset();
  checkout.start.mockResolvedValue(undefined);
  checkout.processingSkuId = undefined;
});
afterEach(cleanup);

describe('PlanPickerModal (spec §2.9, §4 checkout)', () => {
  it('shows Free then Pro with price, description, features, the badge and the all-features link on Pro', () => {
    setup([]);
    const dialog = screen.getByRole('dialog', { name: 'Choose a plan for your production tenant' });
    expect(
      within(dialog)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Free', 'Pro']);
    expect(card('Free').textContent).toContain('$0.00');
    expect(card('Pro202411').textContent).toContain('$16.00');
    expect(within(card('Pro202411')).getByText('Most popular')).toBeTruthy();
    expect(within(card('Free')).queryByText('Most popular')).toBeNull();
    expect(within(card('Free')).queryByRole('link')).toBeNull();
    expect(
      within(card('Pro202411')).queryByRole('link', { name: /View all features/ }),
      'no pricing page configured: no link',
    ).toBeNull();
    expect(within(card('Free')).getByText('Monthly active users: \u206850,000\u2069')).toBeTruthy();
    expect(within(card('Pro202411')).getByText('Organizations')).toBeTruthy();
  });

  it('links "view all features" on Pro to the pricing page the build names', () => {
    links.pricing = 'https://pricing.example.com';
    try {
      setup([]);
      const pro = card('Pro202411');
      const link = within(pro).getByRole('link', { name: /View all features/ });
      expect(link.getAttribute('href')).toBe('https://pricing.example.com');
      expect(link.getAttribute('target')).toBe('_blank');
    } finally {
      links.pricing = undefined;
    }
  });

  it('starts checkout for Pro with the new tenant fields', () => {
    setup([]);
    fireEvent.click(select('Pro202411', 'Pro'));
    expect(checkout.start).toHaveBeenCalledWith('Pro202411', {
      tenantName: 'Acme',
      tenantTag: 'production',
      tenantRegionName: 'US',
    });
  });

  it('disables the other plans while one is processing', () => {
    checkout.processingSkuId = 'Pro202411';
    setup([]);
    expect(select('Free', 'Free').hasAttribute('disabled')).toBe(true);
    // The processing one is busy (disabled too, its spinner after the delay).
    expect(select('Pro202411', 'Pro').hasAttribute('disabled')).toBe(true);
  });

  it('disables Free with a tip at the Free tenant limit; Pro stays available', () => {
    const owned = Array.from({ length: MAX_FREE_TENANTS }, (_, index) =>
      tenantFixture(`f${index}`, { tag: 'production', planId: 'Free', createdAt: 10 }),
    );
    setup([tenantFixture('first', { createdAt: 1 }), ...owned]);
    const free = select('Free', 'Free');
    expect(free.hasAttribute('disabled')).toBe(true);
    const tip = document.getElementById(free.getAttribute('aria-describedby') ?? '');
    expect(tip?.textContent).toBe(`You already own ${MAX_FREE_TENANTS} Free tenants, the most one account can have.`);
    expect(select('Pro202411', 'Pro').hasAttribute('disabled')).toBe(false);
  });

  it('keeps Free available one tenant below the limit', () => {
    const owned = Array.from({ length: MAX_FREE_TENANTS - 1 }, (_, index) =>
      tenantFixture(`f${index}`, { tag: 'production', planId: 'Free', createdAt: 10 }),
    );
    setup([tenantFixture('first', { createdAt: 1 }), ...owned]);
    expect(select('Free', 'Free').hasAttribute('disabled')).toBe(false);
    expect(select('Free', 'Free').getAttribute('aria-describedby')).toBeNull();
  });
});
