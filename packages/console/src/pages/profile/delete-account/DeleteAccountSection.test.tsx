// @vitest-environment happy-dom
import type { AccountDeletionPreview, Me } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import profile from '../../../i18n/locales/en/profile.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { forEdition } from '../edition-scope.ts';
import { profileSections } from '../sections.ts';
import { issuesByTenant } from './blockers.ts';
import { DeleteAccountSection } from './DeleteAccountSection.tsx';

/**
 * The 'me' API as the section meets it: its real hooks call this fake, which answers the preview and the deletion as
 * the server would and records what each request carried.
 */
const server = vi.hoisted(() => ({
  password: 'correct horse',
  recordId: 'record-1',
  preview: { deletes: [], leaves: [], blockers: [] } as AccountDeletionPreview,
  /** What DELETE /api/me answers: nothing (204), or a refusal. */
  refusal: undefined as
    | { status: number; code: string; message: string; data?: unknown; requestId?: string }
    | undefined,
  previewFails: false,
  calls: [] as Array<{ call: string; body?: unknown }>,
}));

const session = vi.hoisted(() => ({ signOut: vi.fn(async () => undefined) }));
vi.mock('../../../auth/session.ts', async (original) => ({
  ...(await original<typeof import('../../../auth/session.ts')>()),
  meResource: async () => 'https://admin.example/me',
  signOut: session.signOut,
}));

vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    const body = init.json as Record<string, unknown> | undefined;
    server.calls.push({ call: `${method} ${path}`, ...(body && { body }) });
    switch (`${method} ${path}`) {
      case 'GET /api/me/deletion-preview':
        if (server.previewFails) throw new real.ApiError(500, 'Server error.', 'request.general');
        return json(server.preview);
      case 'POST /api/me/password/verify':
        if (body?.password !== server.password) {
          throw new real.ApiError(422, 'Wrong password.', 'session.invalid_credentials');
        }
        return json({ verificationRecordId: server.recordId, expiresAt: Date.now() + 600_000 });
      case 'DELETE /api/me': {
        const refusal = server.refusal;
        if (refusal) {
          throw new real.ApiError(refusal.status, refusal.message, refusal.code, refusal.data, refusal.requestId);
        }
        return new Response(null, { status: 204 });
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

function account(hasPassword: boolean): Me {
  return {
    id: 'u1',
    username: null,
    primaryEmail: 'ada@example.com',
    primaryEmailVerified: true,
    primaryPhone: null,
    name: 'Ada',
    avatar: null,
    customData: {},
    identities: {},
    hasPassword,
    lastSignInAt: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

function setup({ hasPassword = true } = {}) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'profile', profile);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <KitProvider>
          <DeleteAccountSection me={account(hasPassword)} />
        </KitProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user: userEvent.setup() };
}

const texts = profile.delete_account;
const deletions = () => server.calls.filter(({ call }) => call === 'DELETE /api/me');

async function start(user: ReturnType<typeof userEvent.setup>) {
  const section = screen.getByRole('region', { name: texts.title });
  await user.click(within(section).getByRole('button', { name: texts.title }));
}

async function verifyPassword(user: ReturnType<typeof userEvent.setup>, password = server.password) {
  const dialog = await screen.findByRole('dialog', { name: 'Verify your password' });
  expect(within(dialog).getByText(texts.verify_description)).toBeTruthy();
  const field = within(dialog).getByLabelText(/^Current password/);
  await user.clear(field);
  await user.type(field, password);
  await user.click(within(dialog).getByRole('button', { name: texts.submit }));
}

beforeEach(() => {
  server.preview = {
    deletes: [{ id: 'own', name: 'Own shop' }],
    leaves: [
      { id: 'shared', name: 'Shared with Bob' },
      { id: 'team', name: 'Team' },
    ],
    blockers: [],
  };
  server.refusal = undefined;
  server.previewFails = false;
  server.calls.length = 0;
  session.signOut.mockClear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the profile by edition', () => {
  it('ends with the delete-account section in cloud and has none in OSS', () => {
    expect(forEdition(profileSections, 'cloud').at(-1)?.key).toBe('delete-account');
    expect(forEdition(profileSections, 'oss').map((section) => section.key)).not.toContain('delete-account');
  });
});

describe('DeleteAccountSection', () => {
  it('blocks with the issues of each tenant and offers no way on (the guard)', async () => {
    server.preview = {
      deletes: [
        { id: 'pro', name: 'Pro shop' },
        { id: 'late', name: 'Late payer' },
      ],
      leaves: [],
      blockers: [
        { tenantId: 'pro', tenantName: 'Pro shop', reason: 'paid_plan' },
        { tenantId: 'late', tenantName: 'Late payer', reason: 'subscription_inactive' },
        { tenantId: 'late', tenantName: 'Late payer', reason: 'open_invoices' },
      ],
    };
    const { user } = setup();
    await start(user);
    const guard = await screen.findByRole('alertdialog', { name: texts.blocked_title });
    const list = within(guard).getByRole('list', { name: texts.blocked_list });
    const tenants = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(
      tenants.map((item) =>
        within(item)
          .getAllByRole('listitem')
          .map((reason) => reason.textContent),
      ),
    ).toEqual([[texts.reasons.paid_plan], [texts.reasons.subscription_inactive, texts.reasons.open_invoices]]);
    expect(within(tenants[0] as HTMLElement).getByText('Pro shop')).toBeTruthy();
    expect(within(guard).queryByRole('button', { name: texts.continue })).toBeNull();
    await user.click(within(guard).getByRole('button', { name: texts.got_it }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletions()).toEqual([]);
  });

  it('lists the tenants deleted and left, asks for the password, deletes, then signs out', async () => {
    const { user } = setup();
    await start(user);
    const review = await screen.findByRole('alertdialog', { name: texts.title });
    const deleted = within(review).getByRole('region', { name: texts.deletes_heading });
    const left = within(review).getByRole('region', { name: texts.leaves_heading });
    expect(
      within(deleted)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Own shop']);
    expect(
      within(left)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Shared with Bob', 'Team']);
    await user.click(within(review).getByRole('button', { name: texts.continue }));

    // The final confirmation is the password; a wrong one stays there and deletes nothing.
    await verifyPassword(user, 'wrong');
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect(deletions()).toEqual([]);
    await verifyPassword(user);

    await waitFor(() => expect(session.signOut).toHaveBeenCalledTimes(1));
    expect(deletions()).toEqual([{ call: 'DELETE /api/me', body: { verificationRecordId: server.recordId } }]);
    // Signing out leaves the page; until it has, the deleting state stays.
    const deleting = screen.getByRole('dialog', { name: texts.deleting_title });
    expect(within(deleting).getByRole('status').textContent).toBe(texts.deleting);
    expect(within(deleting).queryByRole('button')).toBeNull();
  });

  it('says when nothing is deleted or left, and lets the user cancel', async () => {
    server.preview = { deletes: [], leaves: [], blockers: [] };
    const { user } = setup();
    await start(user);
    const review = await screen.findByRole('alertdialog', { name: texts.title });
    expect(within(review).getAllByText(texts.none)).toHaveLength(2);
    await user.click(within(review).getByRole('button', { name: texts.cancel }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletions()).toEqual([]);
  });

  it('confirms in words for an account without a password', async () => {
    const { user } = setup({ hasPassword: false });
    await start(user);
    const review = await screen.findByRole('alertdialog', { name: texts.title });
    await user.click(within(review).getByRole('button', { name: texts.continue }));
    const final = await screen.findByRole('alertdialog', { name: texts.final_title });
    await user.click(within(final).getByRole('button', { name: texts.submit }));
    await waitFor(() => expect(session.signOut).toHaveBeenCalledTimes(1));
    expect(deletions()).toEqual([{ call: 'DELETE /api/me', body: {} }]);
    expect(server.calls.map(({ call }) => call)).not.toContain('POST /api/me/password/verify');
  });

  it('shows a failure with its message and the request id, and stays signed in', async () => {
    server.refusal = { status: 500, code: 'request.general', message: 'Internal error.', requestId: 'req-7f3a' };
    const { user } = setup();
    await start(user);
    await user.click(
      within(await screen.findByRole('alertdialog', { name: texts.title })).getByRole('button', {
        name: texts.continue,
      }),
    );
    await verifyPassword(user);
    const failed = await screen.findByRole('alertdialog', { name: texts.failed_title });
    expect(within(failed).getByText(texts.failed_description)).toBeTruthy();
    expect(within(failed).getByText('Internal error.')).toBeTruthy();
    expect(within(failed).getByText(texts.request_id)).toBeTruthy();
    expect(within(failed).getByText('req-7f3a')).toBeTruthy();
    expect(within(failed).getByRole('button', { name: texts.copy_request_id })).toBeTruthy();
    expect(within(failed).getByText(texts.try_again_later)).toBeTruthy();
    expect(session.signOut).not.toHaveBeenCalled();
    await user.click(within(failed).getByRole('button', { name: texts.got_it }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows the guard when the server refuses at the last moment (a plan bought meanwhile)', async () => {
    server.refusal = {
      status: 422,
      code: 'user.delete_blocked',
      message: 'Blocked.',
      data: { blockers: [{ tenantId: 'own', tenantName: 'Own shop', reason: 'paid_plan' }] },
    };
    const { user } = setup();
    await start(user);
    await user.click(
      within(await screen.findByRole('alertdialog', { name: texts.title })).getByRole('button', {
        name: texts.continue,
      }),
    );
    await verifyPassword(user);
    const guard = await screen.findByRole('alertdialog', { name: texts.blocked_title });
    expect(within(guard).getByText(texts.reasons.paid_plan)).toBeTruthy();
    expect(session.signOut).not.toHaveBeenCalled();
  });

  it('offers to check again when the preview cannot be read', async () => {
    server.previewFails = true;
    const { user } = setup();
    await start(user);
    expect(await screen.findByText(texts.check_failed)).toBeTruthy();
    server.previewFails = false;
    await user.click(screen.getByRole('button', { name: texts.retry }));
    expect(await screen.findByRole('alertdialog', { name: texts.title })).toBeTruthy();
  });
});

describe('issuesByTenant', () => {
  it('groups the issues per tenant in the server’s order, once each', () => {
    expect(
      issuesByTenant([
        { tenantId: 'b', tenantName: 'B', reason: 'open_invoices' },
        { tenantId: 'a', tenantName: 'A', reason: 'paid_plan' },
        { tenantId: 'b', tenantName: 'B', reason: 'paid_plan' },
        { tenantId: 'b', tenantName: 'B', reason: 'open_invoices' },
      ]),
    ).toEqual([
      { tenantId: 'b', tenantName: 'B', reasons: ['open_invoices', 'paid_plan'] },
      { tenantId: 'a', tenantName: 'A', reasons: ['paid_plan'] },
    ]);
  });
});
