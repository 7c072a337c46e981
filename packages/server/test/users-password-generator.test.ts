import { checkPassword, defaultPasswordPolicy, GENERATED_PASSWORD_LENGTH, generatePassword } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';

describe('generated passwords (console create-user and reset-password)', () => {
  it('are 16 characters of every type, pass the default policy, and do not repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH);
      for (const type of [/[a-z]/, /[A-Z]/, /\d/, /[^\dA-Za-z]/]) expect(password).toMatch(type);
      expect(checkPassword(password)).toEqual([]);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });

  it('follow a stricter policy and stay clear of the user’s own names', () => {
    const policy = {
      ...defaultPasswordPolicy,
      length: { min: 24, max: 30 },
      characterTypes: { min: 4 },
      rejects: { ...defaultPasswordPolicy.rejects, words: ['abc', 'xyz'] },
    };
    const user = { username: 'ada', name: 'Ada Lovelace' };
    for (let i = 0; i < 50; i++) {
      const password = generatePassword(policy, user);
      expect(password).toHaveLength(24);
      expect(checkPassword(password, policy, user)).toEqual([]);
    }
  });
});
