import type { User } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { identityRows } from './identities.ts';
import {
  type SettingsFormMessages,
  settingsFormSchema,
  settingsWording,
  toProfile,
  toSettingsForm,
  toSettingsPatch,
  type UserSettingsForm,
} from './settings-form.ts';

const user: User = {
  id: 'u1',
  username: 'ada',
  primaryEmail: 'ada@example.com',
  primaryPhone: '15550100',
  name: 'Ada',
  avatar: null,
  customData: { plan: 'pro', seats: 3 },
  identities: {},
  profile: { givenName: 'Ada', address: { country: 'UK' } },
  isSuspended: false,
  hasPassword: true,
  lastSignInAt: null,
  createdAt: 1,
  updatedAt: 2,
};

const messages: SettingsFormMessages = {
  identifierRequired: 'identifier required',
  fieldProblem: (field, problem) => (problem.kind === 'too_long' ? `${field} max ${problem.max}` : `${field} invalid`),
  passwordRequired: 'password required',
  passwordRejected: (codes) => codes.join(' '),
  avatarInvalid: 'avatar invalid',
  profileTooLong: (field, max) => `${field} max ${max}`,
  customData: (problem) => `custom data ${problem}`,
};

const resolve = schemaResolver<UserSettingsForm>(settingsFormSchema, settingsWording(messages), { raw: true });
const resolverOptions = { fields: {}, shouldUseNativeValidation: false } as const;

/** Field path → message of each refusal, as the form shows them. */
async function refusals(form: UserSettingsForm): Promise<Record<string, string>> {
  const { errors } = await resolve(form, undefined, resolverOptions);
  const flat: [string, string][] = [];
  const walk = (node: object, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (value && typeof value === 'object' && 'message' in value && typeof value.message === 'string') {
        flat.push([[...path, key].join('.'), value.message]);
      } else if (value && typeof value === 'object' && key !== 'ref') walk(value, [...path, key]);
    }
  };
  walk(errors, []);
  return Object.fromEntries(flat);
}

const edit = (change: (form: UserSettingsForm) => void): UserSettingsForm => {
  const form = structuredClone(toSettingsForm(user));
  change(form);
  return form;
};

describe('toSettingsForm', () => {
  it('holds every field as text and custom data as indented JSON', () => {
    const form = toSettingsForm(user);
    expect(form).toMatchObject({ username: 'ada', primaryPhone: '15550100', avatar: '', name: 'Ada' });
    expect(form.profile.givenName).toBe('Ada');
    expect(form.profile.familyName).toBe('');
    expect(form.profile.address.country).toBe('UK');
    expect(form.customData).toBe('{\n  "plan": "pro",\n  "seats": 3\n}');
  });
});

describe('toSettingsPatch', () => {
  it('is empty for an untouched form (no audit entry for nothing)', () => {
    expect(toSettingsPatch(toSettingsForm(user), user)).toEqual({});
  });

  it('sends only what changed: cleared identifiers as empty, profile and custom data whole', () => {
    const form = edit((f) => {
      f.primaryEmail = '  ';
      f.name = ' Ada Lovelace ';
      f.profile.familyName = 'Lovelace';
      f.customData = '{"seats": 3, "plan": "pro"}';
    });
    expect(toSettingsPatch(form, user)).toEqual({
      primaryEmail: '',
      name: 'Ada Lovelace',
      profile: { givenName: 'Ada', familyName: 'Lovelace', address: { country: 'UK' } },
    });
  });

  it('drops an address left empty', () => {
    expect(toProfile(edit((f) => (f.profile.address.country = '')).profile)).toEqual({ givenName: 'Ada' });
  });
});

describe('settingsFormSchema', () => {
  it('accepts the loaded user', async () => {
    expect(await refusals(toSettingsForm(user))).toEqual({});
  });

  it("refuses bad JSON as 'invalid JSON format' and JSON that is not an object", async () => {
    expect(await refusals(edit((f) => (f.customData = '{"plan": }')))).toEqual({
      customData: 'custom data invalid_json',
    });
    expect(await refusals(edit((f) => (f.customData = '[]')))).toEqual({ customData: 'custom data not_object' });
  });

  it('keeps one identifier and checks the formats of spec §5', async () => {
    expect(
      await refusals(
        edit((f) => {
          f.username = '';
          f.primaryEmail = '';
          f.primaryPhone = '';
        }),
      ),
    ).toEqual({ 'root.identifiers': 'identifier required' });
    expect(await refusals(edit((f) => (f.primaryEmail = 'nope')))).toEqual({ primaryEmail: 'primaryEmail invalid' });
  });

  it('wants an http(s) avatar and profile claims within the shared lengths', async () => {
    expect(await refusals(edit((f) => (f.avatar = 'javascript:alert(1)')))).toEqual({ avatar: 'avatar invalid' });
    expect(await refusals(edit((f) => (f.avatar = 'https://cdn.example.com/a.png')))).toEqual({});
    expect(await refusals(edit((f) => (f.profile.nickname = 'n'.repeat(257))))).toEqual({
      'profile.nickname': 'nickname max 256',
    });
    expect(await refusals(edit((f) => (f.profile.address.locality = 'l'.repeat(257))))).toEqual({
      'profile.address.locality': 'locality max 256',
    });
  });
});

describe('identityRows', () => {
  it('lists identities by target with the provider’s user id', () => {
    expect(identityRows({ github: { userId: '42', details: {} }, google: { userId: 'g-1' }, odd: 'x' })).toEqual([
      { target: 'github', providerUserId: '42' },
      { target: 'google', providerUserId: 'g-1' },
      { target: 'odd', providerUserId: undefined },
    ]);
  });
});
