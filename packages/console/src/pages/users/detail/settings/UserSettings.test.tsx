// @vitest-environment happy-dom
import type { User } from '@gatehouse/schemas';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../../components/testing/render-page.tsx';
import users from '../../../../i18n/locales/en/users.json';
import { UserSettings } from './UserSettings.tsx';

// The form's fields are under test: the read-only cards below it (sign-in facts, identities, MFA factors, authorized
// apps) load data of their own and have their own tests.
vi.mock('./SignInFactsCard.tsx', () => ({ SignInFactsCard: () => null }));
vi.mock('./IdentitiesCard.tsx', () => ({ IdentitiesCard: () => null }));
vi.mock('./MfaFactorsCard.tsx', () => ({ MfaFactorsCard: () => null }));
vi.mock('./AuthorizedAppsCard.tsx', () => ({ AuthorizedAppsCard: () => null }));
vi.mock('../../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../api/users.ts')>()),
  useUpdateUser: () => ({ mutateAsync: async () => user }),
}));

const user = {
  id: 'u1',
  username: 'noor',
  primaryEmail: 'noor@example.com',
  primaryPhone: null,
  name: 'نور حداد',
  avatar: null,
  profile: {
    givenName: 'نور',
    familyName: 'Haddad',
    middleName: 'Layla',
    nickname: 'نونو',
    website: 'https://noor.example.com',
    birthdate: '1990-04-01',
    address: { locality: 'بيروت' },
  },
  customData: {},
} as unknown as User;
vi.mock('../user-context.ts', () => ({ useUserOutlet: () => ({ user }) }));

const field = (name: string) => screen.getByRole('textbox', { name });

describe('UserSettings: text direction of what is typed (issue 40, item 15)', () => {
  it('lets the name fields take the direction of their text, and keeps addresses and codes left to right', () => {
    renderPage(<UserSettings />, { path: '/users/u1/settings', namespaces: { users } });
    // Names are written in any script: an Arabic given name and a Latin family name on the same page.
    for (const name of [
      'Name',
      'Given name',
      'Family name',
      'Middle name',
      'Nickname',
      'Preferred username',
      'Gender',
    ]) {
      expect(field(name).getAttribute('dir'), name).toBe('auto');
    }
    expect((field('Given name') as HTMLInputElement).value).toBe('نور');
    expect(field('City').getAttribute('dir'), 'an address part').toBe('auto');
    // Identifiers, web addresses, dates and codes are Latin whatever the language: fixed left to right.
    for (const name of ['Username', 'Email address', 'Website', 'Date of birth', 'Time zone', 'Locale']) {
      expect(field(name).getAttribute('dir'), name).toBe('ltr');
    }
  });
});
