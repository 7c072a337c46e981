import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
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

/** HMAC-SHA256 of `payload` under `key`, base64url; `purpose` separates the uses of one key. */
export const stateMac = (key: string, purpose: string, payload: string) =>
  createHmac('sha256', key).update(`${purpose}\n${payload}`).digest('base64url');

/** Compares two MACs in constant time. */
export function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `payload.mac`: the state as base64url JSON and its MAC. */
export async function signState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  state: State,
): Promise<string> {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${stateMac(await tenantCookieKey(tenant), purpose, payload)}`;
}

/** The state when its MAC is the tenant's for this purpose and it has not expired; undefined otherwise. */
export async function readState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  token: string | undefined,
): Promise<State | undefined> {
  const [payload = '', signature = '', ...rest] = (token ?? '').split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  if (!sameMac(stateMac(await tenantCookieKey(tenant), purpose, payload), signature)) return undefined;
  try {
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as State;
    return state.tenantId === tenant.tenantId && typeof state.exp === 'number' && state.exp > Date.now() / 1000
      ? state
      : undefined;
  } catch {
    return undefined;
  }
}

const sealKey = (key: string, purpose: string) => createHash('sha256').update(`seal\n${purpose}\n${key}`).digest();

/**
 * Like {@link signState}, but also unreadable on the way (AES-256-GCM under a key derived from the tenant's cookie
 * key): for state that holds a user's details and travels in a URL, which logs and browser history keep.
 */
export async function sealState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  state: State,
): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(await tenantCookieKey(tenant), purpose), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed state when it opens under the tenant's key for this purpose and has not expired; undefined otherwise. */
export async function openState<State extends StateBase>(
  tenant: TenantDb,
  purpose: string,
  token: string | undefined,
): Promise<State | undefined> {
  const bytes = Buffer.from(token ?? '', 'base64url');
  if (bytes.length < 29) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      sealKey(await tenantCookieKey(tenant), purpose),
      bytes.subarray(0, 12),
    );
    decipher.setAuthTag(bytes.subarray(12, 28));
    const json = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    const state = JSON.parse(json) as State;
    return state.tenantId === tenant.tenantId && typeof state.exp === 'number' && state.exp > Date.now() / 1000
      ? state
      : undefined;
  } catch {
    return undefined;
  }
}
