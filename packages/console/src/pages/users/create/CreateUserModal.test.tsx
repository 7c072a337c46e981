// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import users from '../../../i18n/locales/en/users.json';
import { CreateUserModal } from './CreateUserModal.tsx';

// What the dialog sends is under test, not the API (the server tests cover it, and the e2e spec the server's 422).
const created: unknown[] = [];
vi.mock('../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/users.ts')>()),
  useCreateUser: () => ({
    mutateAsync: async (input: unknown) => {
      created.push(input);
      throw new Error('the form sent a request');
    },
  }),
}));

describe('create user: refusals beside the field, nothing sent (spec §5)', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('asks for an identifier, then refuses a bad username, email and phone', async () => {
    const user = userEvent.setup();
    renderPage(<CreateUserModal />, { path: '/users/create', namespaces: { users } });
    const dialog = within(screen.getByRole('dialog', { name: 'Create user' }));
    const submit = dialog.getByRole('button', { name: 'Create user' });

    await user.type(dialog.getByLabelText('Name'), 'Nobody');
    await user.click(submit);
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Enter a username, an email address or a phone number.',
    );

    await user.type(dialog.getByLabelText(/^Username/), '9bad_user');
    await user.type(dialog.getByLabelText(/^Email address/), 'bad x@example');
    await user.type(dialog.getByLabelText(/^Phone number/), '555-CALL-NOW');
    await waitFor(() =>
      expect(dialog.queryByRole('alert'), 'the missing-identifier message goes once one is typed').toBeNull(),
    );
    await user.click(submit);
    const errorOf = async (field: string) => (await dialog.findByTestId(`${field}-error`)).textContent;
    expect(await errorOf('username')).toBe(
      'A username starts with a letter or an underscore and has only letters, digits and underscores.',
    );
    expect(await errorOf('primaryEmail')).toBe('Enter an email address such as name@example.com.');
    expect(await errorOf('primaryPhone')).toBe(
      'A phone number has digits, optionally with a leading +, spaces, dashes or parentheses.',
    );
    expect(created, 'nothing is sent').toEqual([]);
  });
});
