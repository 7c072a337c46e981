// @vitest-environment happy-dom
import type { TenantInvitation } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { tenantFixture } from '../../../cloud/tenants/tenant-fixture.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import tenantSettings from '../../../i18n/locales/en/tenant_settings.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { InvitationsList } from './InvitationsList.tsx';
import { invitationLink } from './invite-form.ts';

/** Issue 40, item 11: without email, 'Resend' would send nothing; a pending invitation offers its link instead. */
const server = vi.hoisted(() => ({ email: true }));

vi.mock('../../../cloud/tenants/TenantsProvider.tsx', () => ({
  useTenants: () => ({ currentTenant: tenantFixture('t1') }),
}));
vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  const pending: TenantInvitation = {
    id: 'inv-1',
    invitee: 'ada@example.com',
    status: 'Pending',
    role: 'collaborator',
    inviterId: 'u1',
    createdAt: 0,
    expiresAt: 7 * 86_400_000,
  };
  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    switch (`${method} ${path}`) {
      case 'GET /api/tenants/t1/invitation-delivery':
        return json({ email: server.email });
      case 'GET /api/tenants/t1/invitations':
        return json([pending]);
      default:
        throw new real.ApiError(404, `no route ${method} ${path}`);
    }
  }
  return {
    ...real,
    request,
    requestJson: async <T,>(path: string, schema: { parse: (value: unknown) => T }, init?: RequestOptions) =>
      schema.parse(await (await request(path, init)).json()),
  };
});

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'tenant_settings', tenantSettings);
  render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <InvitationsList />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  server.email = true;
});

describe('InvitationsList', () => {
  it('offers to send a pending invitation again when the server emails', async () => {
    setup();
    const row = (await screen.findByText('ada@example.com')).closest('tr') as HTMLElement;
    expect(await within(row).findByRole('button', { name: 'Resend the invitation to ada@example.com' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Copy the invitation link/ })).toBeNull();
  });

  it('offers the link of a pending invitation to copy when the server sends no email', async () => {
    server.email = false;
    setup();
    const row = (await screen.findByText('ada@example.com')).closest('tr') as HTMLElement;
    expect(
      await within(row).findByRole('button', { name: 'Copy the invitation link for ada@example.com' }),
    ).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Resend/ })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Revoke the invitation to ada@example.com' })).toBeTruthy();
    expect(invitationLink('inv-1', 'https://auth.example', '/console/')).toBe(
      'https://auth.example/console/accept/inv-1',
    );
  });
});
