import { z } from 'zod';

/** Spec §5: the password policy and its defaults. */
export const passwordPolicySchema = z.object({
  length: z.object({ min: z.number().int().min(1).max(256), max: z.number().int().min(1).max(256) }),
  characterTypes: z.object({ min: z.number().int().min(1).max(4) }),
  rejects: z.object({
    pwned: z.boolean(),
    repetitionAndSequence: z.boolean(),
    userInfo: z.boolean(),
    words: z.array(z.string().min(1)),
  }),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

export const defaultPasswordPolicy: PasswordPolicy = {
  length: { min: 8, max: 256 },
  characterTypes: { min: 1 },
  rejects: { pwned: true, repetitionAndSequence: true, userInfo: true, words: [] },
};

export const passwordRejectionCodes = [
  'password_rejected.too_short',
  'password_rejected.too_long',
  'password_rejected.unsupported_characters',
  'password_rejected.character_types',
  'password_rejected.pwned',
  'password_rejected.restricted.repetition',
  'password_rejected.restricted.sequence',
  'password_rejected.restricted.words',
  'password_rejected.restricted.user_info',
] as const;
export type PasswordRejectionCode = (typeof passwordRejectionCodes)[number];

/** Repeated or sequential runs of this many characters are restricted (spec §5). */
const RESTRICTED_RUN = 3;
/** Printable ASCII: letters, digits, space and symbols. */
const supportedCharacters = /^[\x20-\x7E]*$/;
const characterTypeTests = [/[a-z]/, /[A-Z]/, /\d/, /[^\dA-Za-z]/];

/** What the user-info rule compares against: parts of the user's own identifiers and name. */
export type PasswordUserInfo = {
  username?: string | null | undefined;
  primaryEmail?: string | null | undefined;
  primaryPhone?: string | null | undefined;
  name?: string | null | undefined;
};

/** Marks the characters inside runs of at least 3 whose neighbour-to-neighbour step is constant and allowed. */
function markRuns(text: string, allowed: (step: number) => boolean): boolean[] {
  const marked = new Array<boolean>(text.length).fill(false);
  const stepAt = (i: number) => text.charCodeAt(i) - text.charCodeAt(i - 1);
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    const step = i < text.length ? stepAt(i) : Number.NaN;
    const runStep = i - start >= 2 ? stepAt(start + 1) : step;
    if (allowed(step) && step === runStep) continue;
    if (i - start >= RESTRICTED_RUN) marked.fill(true, start, i);
    // The character before a new allowed step starts the next run.
    start = allowed(step) ? i - 1 : i;
  }
  return marked;
}

function markWords(password: string, words: readonly string[]): boolean[] {
  const lower = password.toLowerCase();
  const marked = new Array<boolean>(password.length).fill(false);
  for (const word of words) {
    const needle = word.toLowerCase();
    if (needle.length < RESTRICTED_RUN) continue;
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
      marked.fill(true, at, at + needle.length);
    }
  }
  return marked;
}

function userInfoWords(info: PasswordUserInfo): string[] {
  const words = [info.username, info.primaryPhone, info.primaryEmail, info.primaryEmail?.split('@')[0]];
  for (const part of info.name?.split(/\s+/) ?? []) words.push(part);
  if (info.name) words.push(info.name.replace(/\s+/g, ''));
  return words.filter((word): word is string => Boolean(word));
}

/**
 * Spec §5: a restriction rejects a password when the characters it covers exceed the password's
 * length minus 3 (at least 1), so a password may contain a name or a run as long as enough else
 * surrounds it.
 */
function tooRestricted(marked: readonly boolean[]): boolean {
  const count = marked.filter(Boolean).length;
  return count > 0 && count > Math.max(marked.length - 3, 1);
}

/**
 * The offline checks of the password policy, in the order the spec lists its codes. The pwned
 * check needs a breached-password service and is not part of this function.
 */
export function checkPassword(
  password: string,
  policy: PasswordPolicy = defaultPasswordPolicy,
  userInfo: PasswordUserInfo = {},
): PasswordRejectionCode[] {
  const rejections: PasswordRejectionCode[] = [];
  if (password.length < policy.length.min) rejections.push('password_rejected.too_short');
  if (password.length > policy.length.max) rejections.push('password_rejected.too_long');
  if (!supportedCharacters.test(password)) rejections.push('password_rejected.unsupported_characters');
  const types = characterTypeTests.filter((test) => test.test(password)).length;
  if (types < policy.characterTypes.min) rejections.push('password_rejected.character_types');
  if (policy.rejects.repetitionAndSequence) {
    // One rule over both kinds of run: `aaaa1234` is nothing but runs, though each kind alone covers half of it.
    const repeated = markRuns(password, (step) => step === 0);
    const sequential = markRuns(password.toLowerCase(), (step) => step === 1 || step === -1);
    if (tooRestricted(repeated.map((marked, i) => marked || Boolean(sequential[i])))) {
      if (repeated.some(Boolean)) rejections.push('password_rejected.restricted.repetition');
      if (sequential.some(Boolean)) rejections.push('password_rejected.restricted.sequence');
    }
  }
  if (policy.rejects.words.length > 0 && tooRestricted(markWords(password, policy.rejects.words))) {
    rejections.push('password_rejected.restricted.words');
  }
  if (policy.rejects.userInfo && tooRestricted(markWords(password, userInfoWords(userInfo)))) {
    rejections.push('password_rejected.restricted.user_info');
  }
  return rejections;
}
