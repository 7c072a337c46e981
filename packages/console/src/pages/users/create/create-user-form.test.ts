import { checkPassword, defaultPasswordPolicy } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { generateUserPassword } from '../user-rules.ts';
import {
  type CreateUserForm,
  createUserFormSchema,
  emptyCreateUserForm,
  toCreateUserBody,
  type UserFormMessages,
  userWording,
} from './create-user-form.ts';

const messages: UserFormMessages = {
  identifierRequired: 'identifier required',
  fieldProblem: (field, problem) => (problem.kind === 'too_long' ? `${field} max ${problem.max}` : `${field} invalid`),
  passwordRequired: 'password required',
  passwordRejected: (codes) => codes.join(' '),
};
const resolve = schemaResolver<CreateUserForm>(createUserFormSchema, userWording(messages), { raw: true });
const resolverOptions = { fields: {}, shouldUseNativeValidation: false } as const;

/** Field path → message of each refusal, as the form shows them. */
async function refusals(values: Partial<CreateUserForm>): Promise<Record<string, string>> {
  const { errors } = await resolve({ ...emptyCreateUserForm, ...values }, undefined, resolverOptions);
  const { root, ...fields } = errors;
  const flat = Object.entries(fields).map(([path, error]) => [path, error?.message]);
  if (root) flat.push(['root.identifiers', root.identifiers?.message]);
  return Object.fromEntries(flat);
}

describe('createUserFormSchema', () => {
  it('needs one identifier, reported above the fields', async () => {
    expect(await refusals({ name: 'Ada' })).toEqual({ 'root.identifiers': 'identifier required' });
    expect(await refusals({ username: '   ' })).toEqual({ 'root.identifiers': 'identifier required' });
    expect(await refusals({ username: 'ada' })).toEqual({});
    expect(await refusals({ primaryEmail: 'ada@example.com' })).toEqual({});
    expect(await refusals({ primaryPhone: '+44 (20) 7946-0000' })).toEqual({});
  });

  it('checks each identifier given with the spec §5 rules, all at once', async () => {
    expect(await refusals({ username: '1ada', primaryEmail: 'ada@example', primaryPhone: '555-CALL' })).toEqual({
      username: 'username invalid',
      primaryEmail: 'primaryEmail invalid',
      primaryPhone: 'primaryPhone invalid',
    });
    expect(await refusals({ username: 'ada lovelace' })).toEqual({ username: 'username invalid' });
    expect(await refusals({ primaryEmail: 'ada lovelace@example.com' })).toEqual({
      primaryEmail: 'primaryEmail invalid',
    });
  });

  it("words a length over the shared schema's maximum with that maximum", async () => {
    expect(await refusals({ username: `a${'b'.repeat(128)}` })).toEqual({ username: 'username max 128' });
    expect(await refusals({ username: 'ada', name: 'n'.repeat(129) })).toEqual({ name: 'name max 128' });
  });

  it('checks a typed password against the policy with the user’s own names, and only a typed one', async () => {
    expect(await refusals({ username: 'ada', passwordMode: 'custom' })).toEqual({ password: 'password required' });
    expect(await refusals({ username: 'ada', passwordMode: 'custom', password: 'abc' })).toEqual({
      password: 'password_rejected.too_short password_rejected.restricted.sequence',
    });
    expect(await refusals({ username: 'lovelace', passwordMode: 'custom', password: 'Lovelace1' })).toEqual({
      password: 'password_rejected.restricted.user_info',
    });
    expect(await refusals({ username: 'ada', passwordMode: 'custom', password: 'correct horse battery' })).toEqual({});
    expect(await refusals({ username: 'ada', passwordMode: 'generate', password: 'x' })).toEqual({});
  });
});

describe('toCreateUserBody', () => {
  const form = {
    ...emptyCreateUserForm,
    username: ' ada ',
    primaryEmail: '',
    primaryPhone: '+1 555 0100',
    name: 'Ada',
  };

  it('trims, leaves empty fields out and generates a password that avoids the user’s names', () => {
    let seen: unknown;
    const { body, generatedPassword } = toCreateUserBody(form, (user) => {
      seen = user;
      return 'Generated-Password-9';
    });
    expect(seen).toEqual({ username: 'ada', primaryPhone: '+1 555 0100', name: 'Ada' });
    expect(body).toEqual({
      username: 'ada',
      primaryPhone: '+1 555 0100',
      name: 'Ada',
      password: 'Generated-Password-9',
    });
    expect(generatedPassword).toBe('Generated-Password-9');
  });

  it('sends a typed password as typed and no password at all for none', () => {
    const never = () => {
      throw new Error('not generated');
    };
    expect(toCreateUserBody({ ...form, passwordMode: 'custom', password: ' spaced pass 1 ' }, never)).toEqual({
      body: { username: 'ada', primaryPhone: '+1 555 0100', name: 'Ada', password: ' spaced pass 1 ' },
    });
    expect(toCreateUserBody({ ...form, passwordMode: 'none' }, never)).toEqual({
      body: { username: 'ada', primaryPhone: '+1 555 0100', name: 'Ada' },
    });
  });

  it('generates passwords the policy accepts for this user', () => {
    const user = { username: 'ada', name: 'Ada Lovelace', primaryEmail: 'ada@example.com' };
    for (let i = 0; i < 20; i++) {
      expect(checkPassword(generateUserPassword(user), defaultPasswordPolicy, user)).toEqual([]);
    }
  });
});
