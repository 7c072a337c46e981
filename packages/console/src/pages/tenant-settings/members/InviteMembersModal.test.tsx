// @vitest-environment happy-dom
import type { TenantInvitation, TenantInvitationCreate } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import tenantSettings from '../../../i18n/locales/en/tenant_settings.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { InviteMembersModal } from './InviteMembersModal.tsx';
import { invitationLink } from './invite-form.ts';

/**
 * Issue 40, item 11: the server as the dialog meets it. `delivery` is its answer to whether invitations are emailed
 * (undefined: the question never settles; an Error: it fails); every call goes through the dialog's real API hooks.
 */
const server = vi.hoisted(() => ({
  delivery: { email: true } as { email: boolean } | undefined | Error,
  invited: [] as TenantInvitationCreate[],
}));

vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    switch (`${method} ${path}`) {
      case 'GET /api/tenants/t1/invitation-delivery':
        if (server.delivery === undefined) return new Promise<Response>(() => undefined);
        if (server.delivery instanceof Error) throw new real.ApiError(500, server.delivery.message);
        return json(server.delivery);
      case 'POST /api/tenants/t1/invitations': {
        const body = init.json as TenantInvitationCreate;
        server.invited.push(body);
        const invitees = Array.isArray(body.invitee) ? body.invitee : [body.invitee];
        return json(
          invitees.map(
            (invitee, index): TenantInvitation => ({
              id: `inv-${index + 1}`,
              invitee,
              status: 'Pending',
              role: body.roleName,
              inviterId: 'u1',
              createdAt: 0,
              expiresAt: 7 * 86_400_000,
            }),
          ),
          201,
        );
      }
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
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <InviteMembersModal tenantId="t1" tenantName="Acme" onClose={onClose} />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return { onClose, user: userEvent.setup() };
}

async function addInvitees(user: ReturnType<typeof userEvent.setup>, ...emails: string[]) {
  const field = screen.getByRole('textbox', { name: /Email addresses/ });
  for (const email of emails) await user.type(field, `${email}{Enter}`);
}

beforeEach(() => {
  server.delivery = { email: true };
  server.invited = [];
});

describe('InviteMembersModal when the server emails invitations', () => {
  it('sends them: "Send invitations", no warning, then "Invitation sent." and the dialog closes', async () => {
    const { onClose, user } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    const send = await within(dialog).findByRole('button', { name: 'Send invitations' });
    await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByTestId('invite-no-email')).toBeNull();
    await addInvitees(user, 'ada@example.com');
    await user.click(send);
    expect(await screen.findByText('Invitation sent.')).toBeTruthy();
    expect(server.invited).toEqual([{ invitee: ['ada@example.com'], roleName: 'collaborator' }]);
    expect(onClose).toHaveBeenCalled();
  });
});

describe('InviteMembersModal when the server sends no email', () => {
  it('says so before sending, names the button for what it does, and then shows the links to share', async () => {
    server.delivery = { email: false };
    const { onClose, user } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    expect((await within(dialog).findByTestId('invite-no-email')).textContent).toContain(
      'This installation sends no email, so nobody is told about these invitations.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Send invitations' })).toBeNull();
    await addInvitees(user, 'ada@example.com', 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitations' }));

    expect(await screen.findByText('Invitations created: 2.')).toBeTruthy();
    const links = await screen.findByRole('dialog', { name: 'Share the invitation links' });
    expect(within(links).getByText(/^No email was sent\./)).toBeTruthy();
    const items = within(within(links).getByRole('list')).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    for (const [index, email] of ['ada@example.com', 'grace@example.com'].entries()) {
      const item = items[index] as HTMLElement;
      expect(item.textContent).toContain(email);
      const link = invitationLink(`inv-${index + 1}`, window.location.origin, import.meta.env.BASE_URL);
      expect(within(item).getByText(link)).toBeTruthy();
      expect(within(item).getByRole('button', { name: `Copy the invitation link for ${email}` })).toBeTruthy();
    }
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(links).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('offers the links when the server cannot say whether it emails (they work either way)', async () => {
    server.delivery = new Error('down');
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    const create = await within(dialog).findByRole('button', { name: 'Create invitations' });
    await waitFor(() => expect((create as HTMLButtonElement).disabled).toBe(false));
    expect(within(dialog).getByTestId('invite-no-email')).toBeTruthy();
  });

  it('does not guess while the answer is on its way: the submit waits', async () => {
    server.delivery = undefined;
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    const submit = within(dialog)
      .getAllByRole('button')
      .find((button) => button.getAttribute('type') === 'submit');
    expect((submit as HTMLButtonElement | undefined)?.disabled).toBe(true);
    expect(within(dialog).queryByTestId('invite-no-email')).toBeNull();
  });
});

describe('invitationLink', () => {
  it("is the console's acceptance page, as the server's email has it", () => {
    expect(invitationLink('inv 1', 'https://auth.example', '/console/')).toBe(
      'https://auth.example/console/accept/inv%201',
    );
    expect(invitationLink('inv1', 'https://auth.example', '/console')).toBe('https://auth.example/console/accept/inv1');
  });
});
