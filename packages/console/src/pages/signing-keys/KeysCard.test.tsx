// @vitest-environment happy-dom
import type { OidcKey, OidcKeyType, SigningKeyAlgorithm } from '@gatehouse/schemas';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import signingKeys from '../../i18n/locales/en/signing_keys.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { KeysCard } from './KeysCard.tsx';

// The API is not under test here: what the card sends and shows is.
const sent: { rotated: (SigningKeyAlgorithm | undefined)[]; deleted: string[] } = { rotated: [], deleted: [] };
const lists: Record<OidcKeyType, OidcKey[]> = { 'private-keys': [], 'cookie-keys': [] };
vi.mock('../../api/signing-keys.ts', () => ({
  useOidcKeys: (keyType: OidcKeyType) => ({ data: lists[keyType], isPending: false, error: null, refetch: () => {} }),
  useRotateOidcKeys: () => ({
    isPending: false,
    mutateAsync: async (algorithm?: SigningKeyAlgorithm) => {
      sent.rotated.push(algorithm);
    },
  }),
  useDeleteOidcKey: () => ({
    mutateAsync: async (id: string) => {
      sent.deleted.push(id);
    },
  }),
}));

function setup(keyType: OidcKeyType) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'signing_keys', signingKeys);
  render(
    <I18nProvider i18n={i18n}>
      <KitProvider>
        <KeysCard keyType={keyType} />
      </KitProvider>
    </I18nProvider>,
  );
}

beforeEach(() => {
  sent.rotated.length = 0;
  sent.deleted.length = 0;
  lists['private-keys'] = [
    { id: 'key-new', createdAt: Date.UTC(2026, 0, 2), status: 'Current', signingKeyAlgorithm: 'EC' },
    { id: 'key-old', createdAt: Date.UTC(2026, 0, 1), status: 'Previous', signingKeyAlgorithm: 'RSA' },
  ];
  lists['cookie-keys'] = [
    { id: 'cookie-new', createdAt: Date.UTC(2026, 0, 2), status: 'Current' },
    { id: 'cookie-legacy', createdAt: null, status: 'Previous' },
  ];
});

describe('KeysCard', () => {
  it('lists private keys with algorithm and status; only the previous key can be deleted, after a confirmation', async () => {
    setup('private-keys');
    const table = screen.getByRole('table', { name: 'OIDC private keys' });
    const current = within(table).getByRole('row', { name: /key-new/ });
    expect(current.textContent).toContain('EC P-384 (ES384)');
    expect(current.textContent).toContain('Current');
    expect(within(current).queryByRole('button')).toBeNull();
    const previous = within(table).getByRole('row', { name: /key-old/ });
    expect(previous.textContent).toContain('Previous');

    await userEvent.click(within(previous).getByRole('button', { name: 'Delete key key-old' }));
    const confirmation = await screen.findByRole('alertdialog', { name: 'Delete the previous private key?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(sent.deleted).toEqual([]);

    await userEvent.click(within(previous).getByRole('button', { name: 'Delete key key-old' }));
    const again = await screen.findByRole('alertdialog', { name: 'Delete the previous private key?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(sent.deleted).toEqual(['key-old']);
  });

  it("rotates private keys with the chosen algorithm, the current key's family preselected", async () => {
    setup('private-keys');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate private keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the private keys?' });
    expect(within(dialog).getByRole('radio', { name: /EC P-384/ })).toHaveProperty('checked', true);
    await userEvent.click(within(dialog).getByRole('radio', { name: /RSA \(RS256\)/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    expect(sent.rotated).toEqual(['RSA']);
    expect(screen.queryByRole('dialog', { name: 'Rotate the private keys?' })).toBeNull();
  });

  it('rotates cookie keys without an algorithm and shows an unknown creation date', async () => {
    setup('cookie-keys');
    const table = screen.getByRole('table', { name: 'OIDC cookie keys' });
    expect(within(table).queryByRole('columnheader', { name: 'Algorithm' })).toBeNull();
    expect(within(table).getByRole('row', { name: /cookie-legacy/ }).textContent).toContain('Unknown');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate cookie keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the cookie keys?' });
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    expect(sent.rotated).toEqual([undefined]);
  });
});
