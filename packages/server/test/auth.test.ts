import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TokenOptions } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const withToken = async (options: TokenOptions) =>
  t.call('/api/roles', { headers: { Authorization: `Bearer ${await t.token(options)}` } });

describe('management API token verification', () => {
  it('accepts a console user token from the admin issuer', async () => {
    expect((await withToken({ issuerTenantId: ADMIN_TENANT_ID })).status).toBe(200);
  });

  it("accepts a machine-to-machine token from the tenant's own issuer and audits the application", async () => {
    const token = await t.token({ issuerTenantId: DEFAULT_TENANT_ID, clientId: 'm2m-app' });
    const created = await t.call('/api/roles', {
      method: 'POST',
      body: { name: 'made-by-machine' },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(created.status).toBe(200);
    const logs = await t.call('/api/logs?applicationId=m2m-app');
    expect(logs.json[0]).toMatchObject({
      key: 'Admin.Role.Created',
      payload: { actor: { type: 'application', id: 'm2m-app' } },
    });
  });

  it("refuses an end user's token from the tenant's own issuer, whatever its scopes", async () => {
    const response = await withToken({ issuerTenantId: DEFAULT_TENANT_ID, subject: 'end-user-1' });
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'subject' } });
  });

  it('answers 401 without a token or with a malformed header', async () => {
    for (const Authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer not-a-jwt', 'Bearer a.b.c']) {
      const response = await t.call('/api/roles', {
        auth: false,
        ...(Authorization ? { headers: { Authorization } } : {}),
      });
      expect(response.status, String(Authorization)).toBe(401);
      expect(response.json.code).toBe('auth.unauthorized');
    }
  });

  it.each<[string, TokenOptions]>([
    ['expired', { expiresIn: Math.floor(Date.now() / 1000) - 60 }],
    ['for another audience', { audience: 'https://elsewhere.example/api' }],
    ["for the admin tenant's API", { tenantId: ADMIN_TENANT_ID }],
  ])('answers 401 for a token %s', async (_name, options) => {
    const response = await withToken(options);
    expect(response.status).toBe(401);
    expect(response.json.code).toBe('auth.unauthorized');
  });

  it('answers 401 for a correctly signed token without exp or issued in the future, and allows a small skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExpiry = await withToken({ expiresIn: null });
    expect(noExpiry.status).toBe(401);
    expect(noExpiry.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'claim:exp' } });
    const fromTheFuture = await withToken({ issuedAt: now + 120, expiresIn: now + 3600 });
    expect(fromTheFuture.status).toBe(401);
    expect(fromTheFuture.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'claim:iat' } });
    expect((await withToken({ issuedAt: now + 2, expiresIn: now + 3600 })).status, 'within the clock skew').toBe(200);
  });

  it('accepts a token that expired within the 5 s of clock skew, and refuses one past it (issue 39, item 7)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const justExpired = await withToken({ issuedAt: now - 3600, expiresIn: now - 1 });
    expect(justExpired.status, justExpired.text).toBe(200);
    const expired = await withToken({ issuedAt: now - 3600, expiresIn: now - 10 });
    expect(expired.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'expired' } });
  });

  it('a token accepted before is refused once it expires, and refused by an API with another audience', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await t.token({ issuedAt: now, expiresIn: now + 60 });
    const call = (path: string) => t.call(path, { headers: { Authorization: `Bearer ${token}` } });
    expect((await call('/api/roles')).status).toBe(200);
    expect((await call('/api/roles')).status, 'again: the remembered verification').toBe(200);
    expect((await call('/api/me')).status, 'the same token for the me API (another audience)').toBe(401);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime((now + 66) * 1000);
      const expired = await call('/api/roles');
      expect(expired.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'expired' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 401 for a token signed by a key the tenant does not own (forged)', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'forged' };
    const response = await withToken({ privateJwk: jwk });
    expect(response.status).toBe(401);
  });

  it("answers 401 for a token of another tenant's issuer", async () => {
    // Signed with the real key of tenant "admin" but claiming tenant "default" as issuer is a different key set.
    const response = await withToken({
      issuerTenantId: DEFAULT_TENANT_ID,
      privateJwk: (await t.keys.privateKeys(ADMIN_TENANT_ID))[0],
    });
    expect(response.status).toBe(401);
  });

  it("answers 403 'Insufficient permissions.' when the scope is missing", async () => {
    const response = await withToken({ scope: 'read:data' });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ code: 'auth.forbidden', message: 'Insufficient permissions.' });
  });
});
