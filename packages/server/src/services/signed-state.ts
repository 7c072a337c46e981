import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { CompactEncrypt, CompactSign, compactDecrypt, compactVerify } from 'jose';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { COOKIE_KEYS, parseCookieKeys } from './oidc-keys.ts';

/**
 * Short-lived state a sign-in hands to the browser and gets back (social and enterprise sign-in: which interaction,
 * which connector, the checks of the IdP's answer), signed with the tenant's cookie key so no other party can make
 * or change it. Never secret: it is only signed. Shared by `social-sign-in.ts` and `sso-sign-in.ts`.
 */

/** What every signed state carries: its tenant and its end (epoch seconds). */
export type StateBase = { tenantId: string; exp: number };

/** The tenant's current cookie key (oidc-provider's first key). */
export async function tenantCookieKey(tenant: TenantDb): Promise<string> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, COOKIE_KEYS));
  const [key] = parseCookieKeys(row?.value);
  if (!key) throw new Error('the tenant has no cookie key yet');
  return key.value;
}

/**
 * HMAC-SHA256 of `payload` under `key`, base64url; `purpose` separates the uses of one key. Only for the SAML
 * RelayState (sso-sign-in.ts), which the binding limits to 80 bytes: too short for a JWS. Everything else is a JOSE
 * object (below).
 */
export const stateMac = (key: string, purpose: string, payload: string) =>
  createHmac('sha256', key).update(`${purpose}\n${payload}`).digest('base64url');

/** Compares two MACs in constant time. */
export function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A 256-bit key of its own for each use (`kind` and `purpose`) of the tenant's cookie key (HKDF-SHA256). */
const derivedKey = (cookieKey: string, kind: 'sign' | 'seal', purpose: string) =>
  new Uint8Array(hkdfSync('sha256', cookieKey, 'gatehouse signed state', `${kind}\n${purpose}`, 32));

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The state when it is this tenant's and has not expired (its `exp` is epoch seconds, as a JWT's). */
function stillValid<State extends StateBase>(tenant: TenantDb, bytes: Uint8Array): State | undefined {
  const state = JSON.parse(decoder.decode(bytes)) as State;
  return state.tenantId === tenant.tenantId && typeof state.exp === 'number' && state.exp > Date.now() / 1000
    ? state
    : undefined;
}

/** A compact JWS (HS256) of the state, under a key derived from the tenant's cookie key for this purpose. */
export async function signState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  state: State,
): Promise<string> {
  const key = derivedKey(await tenantCookieKey(tenant), 'sign', purpose);
  return new CompactSign(encoder.encode(JSON.stringify(state))).setProtectedHeader({ alg: 'HS256' }).sign(key);
}

/** The state when its signature is the tenant's for this purpose and it has not expired; undefined otherwise. */
export async function readState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  token: string | undefined,
): Promise<State | undefined> {
  if (!token) return undefined;
  try {
    const key = derivedKey(await tenantCookieKey(tenant), 'sign', purpose);
    const { payload } = await compactVerify(token, key, { algorithms: ['HS256'] });
    return stillValid<State>(tenant, payload);
  } catch {
    return undefined;
  }
}

/**
 * Like {@link signState}, but also unreadable on the way: a compact JWE (`dir`, A256GCM) under a key derived for
 * sealing, for state that holds a user's details and travels in a URL, which logs and browser history keep.
 */
export async function sealState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  state: State,
): Promise<string> {
  const key = derivedKey(await tenantCookieKey(tenant), 'seal', purpose);
  return new CompactEncrypt(encoder.encode(JSON.stringify(state)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .encrypt(key);
}

/** The sealed state when it opens under the tenant's key for this purpose and has not expired; undefined otherwise. */
export async function openState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  token: string | undefined,
): Promise<State | undefined> {
  if (!token) return undefined;
  try {
    const key = derivedKey(await tenantCookieKey(tenant), 'seal', purpose);
    const { plaintext } = await compactDecrypt(token, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    return stillValid<State>(tenant, plaintext);
  } catch {
    return undefined;
  }
}
