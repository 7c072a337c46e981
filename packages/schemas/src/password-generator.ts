import { checkPassword, defaultPasswordPolicy, type PasswordPolicy, type PasswordUserInfo } from './password-policy.ts';

/**
 * A strong random password for an admin to hand to a user (the console's create-user and
 * reset-password dialogs show it once). It has every character type, is at least 16 characters
 * long and passes the given password policy.
 */

const characterSets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!#$%&*+-=?@^_~'];
export const GENERATED_PASSWORD_LENGTH = 16;

/** A uniformly random index below `limit` (rejection sampling, no modulo bias). */
function randomIndex(limit: number): number {
  const range = 2 ** 32 - (2 ** 32 % limit);
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0] ?? 0;
    if (value < range) return value % limit;
  }
}

const pick = (set: string) => set.charAt(randomIndex(set.length));

function candidate(length: number): string {
  const all = characterSets.join('');
  // One of each character type, the rest from all of them, then shuffled (Fisher–Yates).
  const characters = [
    ...characterSets.map(pick),
    ...Array.from({ length: length - characterSets.length }, () => pick(all)),
  ];
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1);
    [characters[i], characters[j]] = [characters[j] as string, characters[i] as string];
  }
  return characters.join('');
}

export function generatePassword(
  policy: PasswordPolicy = defaultPasswordPolicy,
  userInfo: PasswordUserInfo = {},
): string {
  const length = Math.min(Math.max(GENERATED_PASSWORD_LENGTH, policy.length.min), policy.length.max);
  for (;;) {
    const password = candidate(length);
    // Random text rarely breaks a rule (a run of three, a custom word); drawing again is cheap.
    if (checkPassword(password, policy, userInfo).length === 0) return password;
  }
}
