// @vitest-environment happy-dom
import type { Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { cloudKeys } from '../../api/tenants.ts';
import { ToastProvider } from '../../components/Toast/ToastProvider.tsx';
import common from '../../i18n/locales/en/common.json';
import components from '../../i18n/locales/en/components.json';
import quota from '../../i18n/locales/en/quota.json';
import tenants from '../../i18n/locales/en/tenants.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { TenantsProvider } from '../tenants/TenantsProvider.tsx';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { TenantSwitcher } from './TenantSwitcher.tsx';

const production = { tag: 'production', planId: 'Free', quota: { mauLimit: 50_000, tokenLimit: 500_000 } } as const;
const invoice = {
  id: 'in_1',
  status: 'open',
  planId: 'Free',
  amountDue: 100,
  amountPaid: 0,
  periodStart: 0,
  periodEnd: 1,
  createdAt: 0,
} as const;
const list: Tenant[] = [
  tenantFixture('ok', { ...production, name: 'Fine' }),
  tenantFixture('late', {
    ...production,
    name: 'Late',
    openInvoices: [invoice],
    usage: { activeUsers: 60_000, tokenUsage: 0 },
  }),
  tenantFixture('mau', { ...production, name: 'Busy', usage: { activeUsers: 50_000, tokenUsage: 600_000 } }),
  tenantFixture('tok', { ...production, name: 'Chatty', usage: { activeUsers: 1, tokenUsage: 500_000 } }),
  tenantFixture('paid', {
    ...production,
    name: 'Paid',
    planId: 'Pro202411',
    usage: { activeUsers: 1, tokenUsage: 9e6 },
  }),
  tenantFixture('off', { ...production, name: 'Off', isSuspended: true, openInvoices: [invoice] }),
];

function setup(path: string) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(cloudKeys.tenants, list);
  client.setQueryData(cloudKeys.myInvitations, []);
  const i18n = new Translations({ language: 'en', resources: { en: { common, components, quota, tenants } } });
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <TenantsProvider>
            <TenantSwitcher />
            <Outlet />
          </TenantsProvider>
        ),
        children: [{ path: ':tenantId/*', element: null }],
      },
    ],
    { initialEntries: [path] },
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
}

const statusOf = (element: HTMLElement) => within(element).queryByTestId('tenant-status')?.textContent ?? '';

afterEach(cleanup);

describe('tenant switcher status tags (spec §2.10, §4)', () => {
  it('tags each tenant row with its first matching status, and the plan label by §9', async () => {
    setup('/ok/applications');
    fireEvent.click(await screen.findByTestId('tenant-switcher'));
    const rows = Object.fromEntries(list.map((tenant) => [tenant.id, screen.getByTestId(`tenant-${tenant.id}`)]));
    expect(Object.fromEntries(Object.entries(rows).map(([id, row]) => [id, statusOf(row)]))).toEqual({
      ok: '',
      late: 'Payment overdue',
      mau: 'MAU limit reached',
      tok: 'Token limit reached',
      paid: '',
      off: 'Suspended',
    });
    expect(rows.paid?.textContent).toContain('Pro');
    expect(rows.ok?.textContent).toContain('Free');
  });

  it('shows the current tenant tag next to its name on the card', async () => {
    setup('/late/applications');
    const card = await screen.findByTestId('tenant-switcher');
    expect(statusOf(card)).toBe('Payment overdue');
    expect(screen.getByRole('button', { name: 'Tenant: Late', description: 'Payment overdue' })).toBe(card);
  });
});
