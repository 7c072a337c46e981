import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantDb } from '../src/db/tenant-db.ts';
import { openState, readState, sealState, signState } from '../src/services/signed-state.ts';
import { startTestHttpServer } from './support/http-server.ts';

/** The state a sign-in hands to the browser: JOSE objects under keys derived from the tenant's cookie key. */

let tenant: TenantDb;
let other: TenantDb;
let close: () => Promise<void>;
const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

beforeAll(async () => {
  const server = await startTestHttpServer();
  close = server.close;
  // The tenant's provider makes its cookie keys when it first starts.
  await fetch(`${server.base}/oidc/.well-known/openid-configuration`);
  tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  // The same database seen as another tenant: the default tenant's cookie key is not its own.
  other = new TenantDb(server.database.db, 'not-this-one');
});
afterAll(() => close());

const flip = (token: string, at: number) =>
  `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;

describe('signed state (JWS, HS256)', () => {
  it('reads back what it signed, for its purpose only', async () => {
    const state = { tenantId: DEFAULT_TENANT_ID, exp: inAMinute(), uid: 'interaction-1' };
    const token = await signState(tenant, 'social', state);
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).toEqual({ alg: 'HS256' });
    expect(await readState(tenant, 'social', token)).toEqual(state);
    expect(await readState(tenant, 'sso-oidc', token), 'another purpose has another key').toBeUndefined();
  });

  it('refuses a changed payload or signature, an expired state, another tenant and alg none', async () => {
    const token = await signState(tenant, 'social', { tenantId: DEFAULT_TENANT_ID, exp: inAMinute() });
    const [header = '', payload = '', signature = ''] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ tenantId: DEFAULT_TENANT_ID, exp: inAMinute() + 3600 })).toString(
      'base64url',
    );
    expect(await readState(tenant, 'social', `${header}.${forged}.${signature}`)).toBeUndefined();
    expect(await readState(tenant, 'social', flip(token, token.length - 3))).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await readState(tenant, 'social', `${none}.${payload}.`)).toBeUndefined();
    const expired = await signState(tenant, 'social', { tenantId: DEFAULT_TENANT_ID, exp: inAMinute() - 120 });
    expect(await readState(tenant, 'social', expired)).toBeUndefined();
    const elsewhere = await signState(tenant, 'social', { tenantId: 'someone-else', exp: inAMinute() });
    expect(await readState(tenant, 'social', elsewhere), 'the state names another tenant').toBeUndefined();
    await expect(readState(other, 'social', token)).resolves.toBeUndefined();
    expect(await readState(tenant, 'social', undefined)).toBeUndefined();
    expect(await readState(tenant, 'social', 'not.a.token')).toBeUndefined();
  });
});

describe('sealed state (JWE, dir + A256GCM)', () => {
  it('hides its content on the way and opens for its purpose only', async () => {
    const state = { tenantId: DEFAULT_TENANT_ID, exp: inAMinute(), email: 'ada@example.com' };
    const token = await sealState(tenant, 'sso-saml-result', state);
    expect(token.split('.')).toHaveLength(5);
    expect(token).not.toContain(Buffer.from('ada@example.com').toString('base64url').slice(0, 8));
    expect(await openState(tenant, 'sso-saml-result', token)).toEqual(state);
    expect(await openState(tenant, 'sso-idp-initiated', token)).toBeUndefined();
    expect(await readState(tenant, 'sso-saml-result', token), 'a sealed state is no signed one').toBeUndefined();
  });

  it('refuses a changed ciphertext, an expired state and another tenant', async () => {
    const token = await sealState(tenant, 'sso-saml-result', { tenantId: DEFAULT_TENANT_ID, exp: inAMinute() });
    const parts = token.split('.');
    const changed = [...parts.slice(0, 3), flip(parts[3] ?? '', 2), parts[4]].join('.');
    expect(await openState(tenant, 'sso-saml-result', changed)).toBeUndefined();
    const expired = await sealState(tenant, 'sso-saml-result', { tenantId: DEFAULT_TENANT_ID, exp: 1 });
    expect(await openState(tenant, 'sso-saml-result', expired)).toBeUndefined();
    await expect(openState(other, 'sso-saml-result', token)).resolves.toBeUndefined();
  });
});
