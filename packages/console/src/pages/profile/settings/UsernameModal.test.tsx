// @vitest-environment happy-dom
import type { Me } from '@gatehouse/schemas';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import profile from '../../../i18n/locales/en/profile.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { UsernameModal } from './UsernameModal.tsx';

// The 'me' API is not under test here: what the dialog does with its answers is. A plain function rather than
// vi.fn(): with the spy, a rejected answer was reported as an unhandled rejection although the dialog handles it.
const patches: unknown[] = [];
let answer: () => Promise<Me> = () => Promise.resolve(me);
vi.mock('../../../api/me.ts', () => ({
  useUpdateMe: () => ({
    mutateAsync: (patch: unknown) => {
      patches.push(patch);
      return answer();
    },
  }),
}));

const me: Me = {
  id: 'u1',
  username: 'ada',
  primaryEmail: null,
  primaryEmailVerified: false,
  primaryPhone: null,
  name: null,
  avatar: null,
  customData: {},
  identities: {},
  hasPassword: true,
  lastSignInAt: null,
  createdAt: 0,
  updatedAt: 0,
};

function setup() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'profile', profile);
  const onClose = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <KitProvider>
        <UsernameModal me={me} onClose={onClose} />
      </KitProvider>
    </I18nProvider>,
  );
  const field = screen.getByLabelText(/^Username/);
  const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
  return { onClose, field, save };
}

beforeEach(() => {
  patches.length = 0;
  answer = () => Promise.resolve(me);
});

describe('UsernameModal', () => {
  it('refuses a digit first and an empty username without sending anything', async () => {
    const { field, save, onClose } = setup();
    await userEvent.clear(field);
    await userEvent.type(field, '1ada');
    await save();
    expect(await screen.findByTestId('username-error')).toHaveProperty(
      'textContent',
      'A username starts with a letter or an underscore and has only letters, digits and underscores.',
    );
    await userEvent.clear(field);
    await save();
    expect(screen.getByTestId('username-error').textContent).toBe('Username is required.');
    expect(patches).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a 422 in an alert with the server message and keeps the dialog open (spec §8)', async () => {
    answer = () =>
      Promise.reject(new ApiError(422, 'This username is already in use.', 'user.username_already_in_use'));
    const { field, save, onClose } = setup();
    await userEvent.clear(field);
    await userEvent.type(field, 'grace');
    await save();
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('This username is already in use.');
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(patches).toEqual([{ username: 'grace' }]);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Change username' })).toBeTruthy();
  });

  it('saves a good username, says so and closes', async () => {
    answer = () => Promise.resolve({ ...me, username: 'grace' });
    const { field, save, onClose } = setup();
    await userEvent.clear(field);
    await userEvent.type(field, 'grace');
    await save();
    expect(await screen.findByText('Profile saved.')).toBeTruthy();
    expect(patches).toEqual([{ username: 'grace' }]);
    expect(onClose).toHaveBeenCalledOnce();
  });
});
