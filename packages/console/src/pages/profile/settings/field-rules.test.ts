import { describe, expect, it } from 'vitest';
import { fieldProblem, nameFormSchema, namePatch, usernameFormSchema } from './field-rules.ts';

function usernameProblem(username: string) {
  const result = usernameFormSchema.safeParse({ username });
  const [issue] = result.error?.issues ?? [];
  return issue && fieldProblem({ ...issue, input: username });
}

describe('the username form (spec §5)', () => {
  it('accepts a letter or underscore first, then letters, digits or underscores', () => {
    for (const username of ['ada', '_ada', 'Ada_Lovelace_1815']) {
      expect(usernameFormSchema.safeParse({ username }).success).toBe(true);
    }
  });

  it("says 'required' when the username is emptied", () => {
    expect(usernameProblem('')).toEqual({ key: 'required' });
  });

  it('refuses a digit first and other characters with the rule', () => {
    for (const username of ['1ada', 'ada lovelace', 'ada-l', 'adá']) {
      expect(usernameProblem(username)).toEqual({ key: 'invalid' });
    }
  });

  it('says how long it may be', () => {
    expect(usernameProblem('a'.repeat(129))).toEqual({ key: 'too_long', max: 128 });
  });
});

describe('the name form', () => {
  it('takes any name, an empty one included', () => {
    expect(nameFormSchema.safeParse({ name: '' }).success).toBe(true);
    expect(nameFormSchema.safeParse({ name: 'Ada Lovelace 🙂' }).success).toBe(true);
  });

  it('trims the name and removes an empty one', () => {
    expect(namePatch('  Ada  ')).toEqual({ name: 'Ada' });
    expect(namePatch('   ')).toEqual({ name: null });
    expect(namePatch(null)).toEqual({ name: null });
  });
});
