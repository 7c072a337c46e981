// @vitest-environment happy-dom
import type { Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meQueryKey } from '../../api/me.ts';
import { cloudKeys } from '../../api/tenants.ts';
import components from '../../i18n/locales/en/components.json';
import quota from '../../i18n/locales/en/quota.json';
import tenants from '../../i18n/locales/en/tenants.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { QuotaExceededModal } from '../quota/QuotaExceededModal.tsx';
import { quotaExceededStore } from '../quota/quota-exceeded.ts';
import { TenantsProvider } from '../tenants/TenantsProvider.tsx';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { TenantNoticeModal } from './TenantNoticeModal.tsx';
import { resetShownNotices } from './tenant-status.ts';

// The modals are cloud-only; the unit tests run with the OSS define.
vi.mock('../../app/edition.ts', () => ({ edition: 'cloud' }));

const overdue = tenantFixture('p', {
  name: 'Acme production',
  tag: 'production',
  planId: 'Free',
  quota: { mauLimit: 50_000, tokenLimit: 500_000 },
  openInvoices: [
    {
      id: 'in_1',
      status: 'open',
      planId: 'Pro202411',
      amountDue: 1600,
      amountPaid: 0,
      periodStart: 0,
      periodEnd: 1,
      createdAt: 0,
    },
  ],
});
const mauFull = tenantFixture('m', {
  tag: 'production',
  planId: 'Free',
  quota: { mauLimit: 50_000, tokenLimit: 500_000 },
  usage: { activeUsers: 50_000, tokenUsage: 0 },
});
const devFull = tenantFixture('d', { usage: { activeUsers: 500, tokenUsage: 0 } });

function setup(list: Tenant[], path: string, scopes: string[] = ['manage:tenant']) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(cloudKeys.tenants, list);
  client.setQueryData(meQueryKey, { id: 'u1' });
  for (const tenant of list) client.setQueryData(cloudKeys.memberScopes(tenant.id, 'u1'), scopes);
  const i18n = new Translations({ language: 'en', resources: { en: { quota, tenants, components } } });
  const shell = (
    <TenantsProvider>
      <TenantNoticeModal />
      <QuotaExceededModal />
      <Outlet />
    </TenantsProvider>
  );
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: shell,
        children: [{ path: ':tenantId/*', element: <p>page</p> }],
      },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { router, view };
}

beforeEach(resetShownNotices);
afterEach(() => {
  cleanup();
  quotaExceededStore.dismiss();
});

describe('MAU, token and overdue modals (spec §4)', () => {
  it('names the tenant and the amount due, and offers managers the subscription tab', async () => {
    const { router } = setup([overdue], '/p/applications');
    const dialog = await screen.findByRole('dialog', { name: 'Payment overdue' });
    expect(dialog.textContent).toContain('Acme production has unpaid invoices of $16.00.');
    const link = screen.getByRole('link', { name: 'Manage billing' });
    expect(link.getAttribute('href')).toBe('/p/tenant-settings/subscription');
    await act(async () => fireEvent.click(link));
    expect(router.state.location.pathname).toBe('/p/tenant-settings/subscription');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows once per page view: Esc closes it and a remount does not bring it back', async () => {
    const first = setup([mauFull], '/m/applications');
    const dialog = await screen.findByRole('dialog', { name: 'Monthly active user limit reached' });
    expect(dialog.textContent).toContain('monthly active user limit of the Free plan');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    first.view.unmount();
    setup([mauFull], '/m/users');
    expect(await screen.findByText('page')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells members without manage:tenant to ask an admin, with no link', async () => {
    setup([mauFull], '/m/applications', ['read:data']);
    await screen.findByRole('dialog');
    expect(screen.getByText('Ask an admin of this tenant to upgrade the plan.')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('never opens on a development tenant, whatever its usage', async () => {
    setup([devFull], '/d/applications');
    expect(await screen.findByText('page')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('quota-exceeded modal (spec §8)', () => {
  it('names each refused quota with its usage and the plan, and closes with the close button', async () => {
    setup([mauFull], '/m/applications');
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    act(() => quotaExceededStore.raise([{ key: 'applicationsLimit', limit: 3, usage: 3 }]));
    const dialog = await screen.findByRole('dialog', { name: 'Plan limit reached' });
    expect(dialog.textContent).toContain('The Free plan does not allow more.');
    expect(dialog.textContent).toContain('Applications: 3 of 3 used on the Free plan');
    expect(screen.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe(
      '/m/tenant-settings/subscription',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(quotaExceededStore.get()).toBeUndefined();
  });
});
