import { z } from 'zod';
import { userIdSchema } from '../ids.ts';

/** Spec §5: a username starts with a letter or underscore, then letters, digits or underscores. */
export const usernameRegex = /^[A-Z_a-z]\w*$/;
export const usernameSchema = z.string().max(128).regex(usernameRegex);

/** Spec §5: email is non-space text, '@', non-space text, '.', non-space text. */
export const emailRegex = /^\S+@\S+\.\S+$/;
export const emailSchema = z.string().max(128).regex(emailRegex);

/** Spec §5: a phone number is digits only; the looser input format also allows a leading plus, dashes, parentheses and spaces. */
export const phoneRegex = /^\d+$/;
export const loosePhoneRegex = /^\+?[\d\s()-]*\d[\d\s()-]*$/;
/** A phone number as typed (loose format), stored as its digits, so `+1 (555) 010` and `1555010` are the same number. */
export const phoneSchema = z
  .string()
  .max(128)
  .regex(loosePhoneRegex)
  .transform((value) => value.replace(/\D/g, ''));

/** Minimum password length of the default password policy (spec §5). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Spec §3: how a user's password is stored. New and upgraded passwords are always Argon2id. */
export const passwordEncryptionMethods = [
  'Argon2i',
  'Argon2id',
  'Argon2d',
  'SHA1',
  'SHA256',
  'MD5',
  'Bcrypt',
  'Legacy',
] as const;
export type PasswordEncryptionMethod = (typeof passwordEncryptionMethods)[number];

/** Every method of spec §3 can be imported (none is left out). */
export const unsupportedImportAlgorithms: readonly PasswordEncryptionMethod[] = [];

/** Hash functions a `Legacy` digest may name (`["sha256", ["salt", "@"], "<hex>"]`, `@` standing for the password). */
export const legacyHashAlgorithms = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;

const hexDigest = (length: number) => new RegExp(`^[\\dA-Fa-f]{${length}}$`);
const argon2Digest = /^\$(argon2(?:id|i|d))\$v=\d+\$m=\d+,t=\d+,p=\d+\$[\d+/A-Za-z]+\$[\d+/A-Za-z]+$/;

function legacyDigestProblem(digest: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(digest);
  } catch {
    return 'A Legacy digest is a JSON array: ["sha256", ["salt", "@"], "<hex digest>"].';
  }
  const shapeOk =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    typeof parsed[0] === 'string' &&
    Array.isArray(parsed[1]) &&
    parsed[1].every((arg) => typeof arg === 'string') &&
    typeof parsed[2] === 'string';
  if (!shapeOk) return 'A Legacy digest is a JSON array: ["sha256", ["salt", "@"], "<hex digest>"].';
  const [algorithm, args, expected] = parsed as [string, string[], string];
  if (!(legacyHashAlgorithms as readonly string[]).includes(algorithm.toLowerCase())) {
    return `The Legacy hash function must be one of ${legacyHashAlgorithms.join(', ')}.`;
  }
  if (!args.includes('@')) return 'The Legacy arguments must contain "@" where the password goes.';
  if (!/^[\dA-Fa-f]+$/.test(expected)) return 'The Legacy digest must be hexadecimal.';
  return undefined;
}

/** Why an imported password digest does not fit its algorithm, or undefined when it does. */
export function passwordDigestProblem(algorithm: PasswordEncryptionMethod, digest: string): string | undefined {
  switch (algorithm) {
    case 'Argon2i':
    case 'Argon2id':
    case 'Argon2d': {
      const variant = argon2Digest.exec(digest)?.[1];
      return variant === algorithm.toLowerCase()
        ? undefined
        : `Not an encoded ${algorithm} hash ($${algorithm.toLowerCase()}$v=…).`;
    }
    case 'SHA1':
      return hexDigest(40).test(digest) ? undefined : 'A SHA1 digest is 40 hexadecimal characters.';
    case 'SHA256':
      return hexDigest(64).test(digest) ? undefined : 'A SHA256 digest is 64 hexadecimal characters.';
    case 'MD5':
      return hexDigest(32).test(digest) ? undefined : 'An MD5 digest is 32 hexadecimal characters.';
    case 'Legacy':
      return legacyDigestProblem(digest);
    case 'Bcrypt':
      // Modular crypt format: $2a$/$2b$/$2x$/$2y$, a two-digit cost, then 22 characters of salt and 31 of hash.
      return /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(digest)
        ? undefined
        : 'A Bcrypt digest looks like $2b$10$ followed by 53 characters.';
  }
}

/** Spec §3 profile: standard OpenID Connect claims about the person, all optional. */
const profileText = z.string().max(256);
export const userProfileSchema = z.strictObject({
  familyName: profileText.optional(),
  givenName: profileText.optional(),
  middleName: profileText.optional(),
  nickname: profileText.optional(),
  preferredUsername: profileText.optional(),
  profile: z.string().max(2048).optional(),
  website: z.string().max(2048).optional(),
  gender: profileText.optional(),
  birthdate: profileText.optional(),
  zoneinfo: profileText.optional(),
  locale: profileText.optional(),
  address: z
    .strictObject({
      formatted: profileText.optional(),
      streetAddress: profileText.optional(),
      locality: profileText.optional(),
      region: profileText.optional(),
      postalCode: profileText.optional(),
      country: profileText.optional(),
    })
    .optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const userNameSchema = z.string().max(128);
export const avatarSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** A user as the management API returns it: never the password hash, only whether there is one. */
export const userSchema = z.object({
  id: userIdSchema,
  username: z.string().nullable(),
  primaryEmail: z.string().nullable(),
  primaryPhone: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  customData: z.record(z.string(), z.unknown()),
  identities: z.record(z.string(), z.unknown()),
  profile: z.record(z.string(), z.unknown()),
  isSuspended: z.boolean(),
  hasPassword: z.boolean(),
  lastSignInAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type User = z.infer<typeof userSchema>;
