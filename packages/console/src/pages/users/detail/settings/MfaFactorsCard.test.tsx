// @vitest-environment happy-dom
import type { User, UserMfaVerification, UserMfaVerificationCreate } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../../components/testing/render-page.tsx';
import users from '../../../../i18n/locales/en/users.json';
import { MfaFactorsCard } from './MfaFactorsCard.tsx';

// What the card shows and sends is under test, not the API (the server tests cover the mfa-verifications routes).
const removed: string[] = [];
const created: UserMfaVerificationCreate[] = [];
let verifications: UserMfaVerification[] = [];
vi.mock('../../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../api/users.ts')>()),
  useUserMfaVerifications: () => ({ data: verifications, isPending: false, isError: false, isSuccess: true }),
  useCreateUserMfaVerification: () => ({
    isPending: false,
    mutateAsync: async (body: UserMfaVerificationCreate) => {
      created.push(body);
      return { type: 'BackupCode', codes: [] };
    },
  }),
  useDeleteUserMfaVerification: () => ({
    mutateAsync: async (id: string) => {
      removed.push(id);
      verifications = verifications.filter((verification) => verification.id !== id);
    },
  }),
}));

const user = { id: 'u1', name: 'Ada Lovelace', username: 'ada' } as User;
const created1 = Date.UTC(2026, 0, 2, 9, 30);
const used1 = Date.UTC(2026, 2, 4, 18, 5);
const time = (epochMs: number) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(epochMs);

function passkey(id: string, extra: Partial<UserMfaVerification>): UserMfaVerification {
  return { id, type: 'WebAuthn', createdAt: created1, lastUsedAt: null, ...extra };
}

const list = () => screen.getByRole('list', { name: 'MFA factors' });
const rowOf = (text: string) => {
  const row = within(list())
    .getAllByRole('listitem')
    .find((item) => item.textContent?.includes(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row;
};
const open = () => renderPage(<MfaFactorsCard user={user} />, { path: '/users/u1/settings', namespaces: { users } });

beforeEach(() => {
  removed.length = 0;
  created.length = 0;
  verifications = [
    { id: 'totp', type: 'Totp', createdAt: created1, lastUsedAt: used1 },
    passkey('pk-mac', { name: 'MacBook Pro', agent: 'Mozilla/5.0 (Macintosh)', backedUp: true, lastUsedAt: used1 }),
    passkey('pk-key', { name: 'YubiKey 5C', backedUp: false }),
    passkey('pk-anon', {}),
  ];
});

describe('MfaFactorsCard: passkeys', () => {
  it('lists each passkey on its own row: name, synced or device-bound, added and last used', () => {
    open();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(4);

    const mac = rowOf('MacBook Pro');
    expect(mac.textContent).toContain(`Synced passkey · Added ${time(created1)} · Last used ${time(used1)}`);
    const key = rowOf('YubiKey 5C');
    expect(key.textContent).toContain(`Device-bound passkey · Added ${time(created1)} · Never used`);
    // The user's own name for it takes its own direction.
    expect(within(key).getByText('YubiKey 5C').getAttribute('dir')).toBe('auto');

    const unnamed = within(list()).getAllByRole('listitem')[3] as HTMLElement;
    expect(within(unnamed).getByText('Passkey')).toBeTruthy();
    expect(unnamed.textContent).toContain(`Added ${time(created1)} · Never used`);
    expect(unnamed.textContent).not.toContain('passkey ·');
    expect(rowOf('Authenticator app (TOTP)').textContent).toContain(`Last used ${time(used1)}`);
  });

  it('removes one passkey after the confirmation, leaving the others', async () => {
    const clicker = userEvent.setup();
    open();
    const remove = screen.getByRole('button', { name: 'Remove passkey “YubiKey 5C”' });

    await clicker.click(remove);
    const confirmation = await screen.findByRole('alertdialog', { name: 'Remove passkey' });
    expect(confirmation.textContent).toContain(
      'Ada Lovelace will no longer be able to sign in with the passkey “YubiKey 5C”.',
    );
    await clicker.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(removed, 'nothing is sent when cancelled').toEqual([]);

    await clicker.click(remove);
    const again = await screen.findByRole('alertdialog', { name: 'Remove passkey' });
    await clicker.click(within(again).getByRole('button', { name: 'Remove' }));
    expect(removed).toEqual(['pk-key']);
    expect(await screen.findByText('Passkey “YubiKey 5C” removed.')).toBeTruthy();
  });

  it('removes an unnamed passkey, named in the button by when it was added', async () => {
    const clicker = userEvent.setup();
    open();
    await clicker.click(screen.getByRole('button', { name: `Remove the passkey added ${time(created1)}` }));
    const confirmation = await screen.findByRole('alertdialog', { name: 'Remove passkey' });
    expect(confirmation.textContent).toContain('Ada Lovelace will no longer be able to sign in with this passkey.');
    await clicker.click(within(confirmation).getByRole('button', { name: 'Remove' }));
    expect(removed).toEqual(['pk-anon']);
    expect(await screen.findByText('Passkey removed.')).toBeTruthy();
  });

  it('offers no way to add a passkey: only the user can, with their own authenticator', async () => {
    verifications = [passkey('pk-mac', { name: 'MacBook Pro', backedUp: true })];
    const clicker = userEvent.setup();
    open();
    const card = screen.getByRole('list', { name: 'MFA factors' }).parentElement as HTMLElement;
    const labels = within(card)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label') ?? button.textContent);
    expect(labels).toEqual(['Remove passkey “MacBook Pro”', 'Add authenticator app (TOTP)', 'Generate backup codes']);
    expect(screen.getByText(users.mfa.passkeys_by_user)).toBeTruthy();

    // A passkey is a factor backup codes can stand in for.
    await clicker.click(screen.getByRole('button', { name: 'Generate backup codes' }));
    expect(created).toEqual([{ type: 'BackupCode' }]);
  });
});
