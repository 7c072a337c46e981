import { createHash, timingSafeEqual } from 'node:crypto';
import {
  DomainError,
  type PasswordEncryptionMethod,
  type PasswordUserInfo,
  passwordEncryptionMethods,
} from '@gatehouse/schemas';
import bcrypt from 'bcryptjs';
import type { TenantDb } from '../db/tenant-db.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD, verifyPassword } from './passwords.ts';
import { passwordRejections } from './sign-in-experience.ts';

/**
 * Passwords of end users: the policy check of new ones, and verification of stored ones whatever
 * their method (spec §3), so imported hashes work at the first sign-in and are then upgraded.
 */

/**
 * 422 `password.rejected` with `data.rejections` when a password an admin sets breaks the tenant's policy (its offline
 * rules: the pwned check is for the passwords end users choose on the sign-in pages).
 */
export async function assertPasswordAllowed(tenant: TenantDb, password: string, userInfo: PasswordUserInfo) {
  const rejections = await passwordRejections(tenant, password, userInfo);
  if (rejections.length > 0) throw new DomainError('unprocessable', 'password.rejected', { rejections });
}

function equalHex(actual: string, expected: string): boolean {
  const a = Buffer.from(actual.toLowerCase());
  const b = Buffer.from(expected.toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

const hexOf = (algorithm: string, input: string) => createHash(algorithm).update(input, 'utf8').digest('hex');

/** `["sha256", ["salt", "@"], "<hex>"]`: the arguments joined, `@` standing for the password. */
function verifyLegacy(digest: string, password: string): boolean {
  const parsed: unknown = JSON.parse(digest);
  if (!Array.isArray(parsed) || parsed.length !== 3) return false;
  const [algorithm, args, expected] = parsed as [unknown, unknown, unknown];
  if (typeof algorithm !== 'string' || !Array.isArray(args) || typeof expected !== 'string') return false;
  const input = args.map((arg) => (arg === '@' ? password : String(arg))).join('');
  return equalHex(hexOf(algorithm.toLowerCase(), input), expected);
}

const isMethod = (value: string | null): value is PasswordEncryptionMethod =>
  (passwordEncryptionMethods as readonly (string | null)[]).includes(value);

/** Whether `password` matches a stored password of the given method. Malformed hashes never match. */
export async function verifyStoredPassword(
  method: string | null,
  encrypted: string,
  password: string,
): Promise<boolean> {
  // Rows written before methods were recorded hold Argon2id.
  const kind = isMethod(method) ? method : PASSWORD_ENCRYPTION_METHOD;
  try {
    switch (kind) {
      case 'Argon2i':
      case 'Argon2id':
      case 'Argon2d':
        // The encoded hash names its variant; a hash of another variant than recorded is refused.
        return encrypted.startsWith(`$${kind.toLowerCase()}$`) && (await verifyPassword(encrypted, password));
      case 'SHA1':
        return equalHex(hexOf('sha1', password), encrypted);
      case 'SHA256':
        return equalHex(hexOf('sha256', password), encrypted);
      case 'MD5':
        return equalHex(hexOf('md5', password), encrypted);
      case 'Legacy':
        return verifyLegacy(encrypted, password);
      case 'Bcrypt':
        return await bcrypt.compare(password, encrypted);
    }
  } catch {
    return false;
  }
}

/** Our Argon2id parameters as they appear in an encoded hash. */
const CURRENT_ARGON2_PREFIX = '$argon2id$v=19$m=19456,t=2,p=1$';

/** A stored password that is not Argon2id with our parameters is re-hashed after a successful sign-in. */
export function needsRehash(method: string | null, encrypted: string): boolean {
  return method !== PASSWORD_ENCRYPTION_METHOD || !encrypted.startsWith(CURRENT_ARGON2_PREFIX);
}

/** The columns of a freshly hashed password. */
export async function encryptPassword(password: string) {
  return { passwordEncrypted: await hashPassword(password), passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD };
}
