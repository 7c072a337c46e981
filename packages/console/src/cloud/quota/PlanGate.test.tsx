// @vitest-environment happy-dom
import { freePlanQuota, type QuotaKey, type Tenant } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { billingKeys } from '../../api/billing.ts';
import { meQueryKey } from '../../api/me.ts';
import { cloudKeys } from '../../api/tenants.ts';
import components from '../../i18n/locales/en/components.json';
import quota from '../../i18n/locales/en/quota.json';
import tenants from '../../i18n/locales/en/tenants.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { TenantsProvider } from '../tenants/TenantsProvider.tsx';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { CloudPlanGate, PlanGate } from './PlanGate.tsx';

const free = tenantFixture('f', { tag: 'production', planId: 'Free' });
const usage = (counts: Partial<Record<QuotaKey, number>>) => ({
  quota: freePlanQuota,
  basicQuota: freePlanQuota,
  usage: Object.fromEntries(Object.keys(freePlanQuota).map((key) => [key, counts[key as QuotaKey] ?? 0])),
  resources: {},
  roles: {},
});

function setup(element: React.ReactNode, tenant: Tenant = free, scopes = ['manage:tenant']) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(cloudKeys.tenants, [tenant]);
  client.setQueryData(meQueryKey, { id: 'u1' });
  client.setQueryData(cloudKeys.memberScopes(tenant.id, 'u1'), scopes);
  client.setQueryData(billingKeys.usage(tenant.id), usage({ applicationsLimit: 3, resourcesLimit: 0 }));
  const i18n = new Translations({ language: 'en', resources: { en: { quota, tenants, components } } });
  const router = createMemoryRouter([{ path: '/:tenantId/*', element: <TenantsProvider>{element}</TenantsProvider> }], {
    initialEntries: [`/${tenant.id}/organizations`],
  });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

afterEach(cleanup);

describe('PlanGate (issue 26)', () => {
  it('shows the plan tag, why, and the upgrade link beside an action the plan leaves out', async () => {
    setup(
      <CloudPlanGate quota="organizationsLimit">
        <button type="button">Create organization</button>
      </CloudPlanGate>,
    );
    const gate = await screen.findByTestId('plan-gate-organizationsLimit');
    expect(gate.textContent).toContain('Pro');
    expect(gate.textContent).toContain('Not in the Free plan');
    expect(screen.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe(
      '/f/tenant-settings/subscription',
    );
    // The action stays: the server's refusal is the safety net.
    expect(screen.getByRole('button', { name: 'Create organization' })).toBeTruthy();
  });

  it('marks a count at its limit and nothing below it', async () => {
    setup(
      <>
        <CloudPlanGate quota="applicationsLimit" />
        <CloudPlanGate quota="resourcesLimit" />
      </>,
    );
    const gate = await screen.findByTestId('plan-gate-applicationsLimit');
    expect(gate.textContent).toContain('Applications: Free plan limit reached');
    expect(screen.queryByTestId('plan-gate-resourcesLimit')).toBeNull();
  });

  it('gives members who cannot manage the tenant no link, and shows nothing on a plan that includes it', async () => {
    setup(<CloudPlanGate quota="customJwtEnabled" />, free, ['read:data']);
    await screen.findByTestId('plan-gate-customJwtEnabled');
    expect(screen.queryByRole('link')).toBeNull();
    cleanup();
    setup(
      <CloudPlanGate quota="customJwtEnabled">
        <button type="button">Add</button>
      </CloudPlanGate>,
      tenantFixture('p', { tag: 'production', planId: 'Pro202411' }),
    );
    await screen.findByRole('button', { name: 'Add' });
    expect(screen.queryByTestId('plan-gate-customJwtEnabled')).toBeNull();
  });

  it('shows nothing but the action in the OSS edition', async () => {
    setup(
      <PlanGate quota="organizationsLimit">
        <button type="button">Create organization</button>
      </PlanGate>,
    );
    await screen.findByRole('button', { name: 'Create organization' });
    expect(screen.queryByTestId('plan-gate-organizationsLimit')).toBeNull();
  });
});
