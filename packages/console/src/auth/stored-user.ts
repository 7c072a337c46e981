import type { ConsoleConfig } from './console-config.ts';

/**
 * The signed-in user as oidc-client-ts keeps it in sessionStorage (`WebStorageStateStore`'s `oidc.` prefix and
 * `UserManager`'s `user:{authority}:{client_id}` key, the JSON of `User.toStorageString`). Reading it here lets a page
 * whose tokens are fresh run without loading the OIDC client; `stored-user.test.ts` stores a user with the real
 * client and reads it back, so a change of that format fails a test instead of signing everyone out. Checked by hand,
 * not with zod: this runs on the first page, which does not download the validation library.
 */
export type StoredUser = {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_at?: number;
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies `key` when it is absent or of `type`; false when it is present with another type. */
function pick(from: Json, to: Json, key: string, type: 'string' | 'number'): boolean {
  const value = from[key];
  if (value === undefined) return true;
  if (typeof value !== type) return false;
  to[key] = value;
  return true;
}

function parseStoredUser(value: unknown): StoredUser | null {
  if (!isObject(value) || typeof value.access_token !== 'string') return null;
  const user: Json = { access_token: value.access_token };
  const valid =
    pick(value, user, 'refresh_token', 'string') &&
    pick(value, user, 'id_token', 'string') &&
    pick(value, user, 'scope', 'string') &&
    pick(value, user, 'expires_at', 'number');
  return valid ? (user as StoredUser) : null;
}

export const storedUserKey = (config: Pick<ConsoleConfig, 'issuer' | 'clientId'>) =>
  `oidc.user:${config.issuer}:${config.clientId}`;

/** The stored user, or null when nobody is signed in in this tab (or the entry is unreadable). */
export function readStoredUser(config: Pick<ConsoleConfig, 'issuer' | 'clientId'>): StoredUser | null {
  try {
    return parseStoredUser(JSON.parse(sessionStorage.getItem(storedUserKey(config)) ?? 'null'));
  } catch {
    return null; // Storage disabled or not JSON: as signed out, which starts a sign-in.
  }
}

/** The per-API tokens `session.ts` caches beside the user. */
export type CachedToken = { token: string; expiresAt: number; scope?: string };

export function parseCachedToken(value: unknown): CachedToken | undefined {
  if (!isObject(value) || typeof value.token !== 'string' || typeof value.expiresAt !== 'number') return undefined;
  const token: Json = { token: value.token, expiresAt: value.expiresAt };
  return pick(value, token, 'scope', 'string') ? (token as CachedToken) : undefined;
}
