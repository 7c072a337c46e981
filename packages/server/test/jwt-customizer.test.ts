import { ADMIN_TENANT_ID, jwtCustomizerConfigKeys, MASKED_SECRET } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantConfigs } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

/** The custom JWT management API (issue 22, reference `/configs/jwt-customizer`, `/configs/id-token`). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const path = '/api/configs/jwt-customizer/access-token';
const script =
  'const getCustomJwtClaims = async ({ environmentVariables }) => ({ key: environmentVariables.API_KEY });';

describe('the custom JWT API', () => {
  it('guards every route', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/configs/jwt-customizer' },
      { method: 'GET', path },
      { method: 'PUT', path, body: { script } },
      { method: 'PATCH', path, body: { script } },
      { method: 'DELETE', path },
      {
        method: 'POST',
        path: '/api/configs/jwt-customizer/test',
        body: { tokenType: 'access-token', script, token: {} },
      },
      { method: 'GET', path: '/api/configs/id-token' },
      { method: 'PUT', path: '/api/configs/id-token', body: { enabledExtendedClaims: [] } },
    ]);
  });

  it('creates (201), replaces (200), reads with the variables masked, and keeps them encrypted at rest', async () => {
    expect((await t.call('/api/configs/jwt-customizer')).json).toEqual([]);
    expect((await t.call(path)).status).toBe(404);
    const created = await t.call(path, {
      method: 'PUT',
      body: { script, environmentVariables: { API_KEY: 'sk-live-123456' }, tokenSample: { sub: 'u1' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({
      script,
      environmentVariables: { API_KEY: MASKED_SECRET },
      tokenSample: { sub: 'u1' },
      blockIssuanceOnError: true,
    });
    const replaced = await t.call(path, {
      method: 'PUT',
      body: { script, environmentVariables: { API_KEY: MASKED_SECRET, REGION: 'eu' }, blockIssuanceOnError: false },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.environmentVariables).toEqual({ API_KEY: MASKED_SECRET, REGION: MASKED_SECRET });
    expect((await t.call('/api/configs/jwt-customizer')).json).toEqual([
      { key: 'jwt.accessToken', value: replaced.json },
    ]);

    const row = await ownTenant(t).findOne(
      tenantConfigs,
      eq(tenantConfigs.key, jwtCustomizerConfigKeys['access-token']),
    );
    const stored = JSON.stringify(row?.value);
    expect(stored).not.toContain('sk-live-123456');
    expect(stored).not.toContain('REGION');

    // The masked value kept the stored one: the Test sees it.
    const tested = await t.call('/api/configs/jwt-customizer/test', {
      method: 'POST',
      body: {
        tokenType: 'access-token',
        script,
        environmentVariables: { API_KEY: MASKED_SECRET },
        token: { sub: 'u1' },
      },
    });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.json).toEqual({
      payload: { sub: 'u1', key: 'sk-live-123456' },
      claims: { key: 'sk-live-123456' },
      droppedClaims: [],
    });

    // Audit entries never hold a variable's value.
    const audit = await auditEntries(t, 'access-token');
    expect(audit.map((entry) => entry.key)).toEqual(['Admin.JwtCustomizer.Updated', 'Admin.JwtCustomizer.Created']);
    expect(JSON.stringify(audit)).not.toContain('sk-live-123456');
  });

  it('patches what it names, and refuses a masked value with nothing stored', async () => {
    const patched = await t.call(path, { method: 'PATCH', body: { blockIssuanceOnError: true } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ script, blockIssuanceOnError: true });
    expect(Object.keys(patched.json.environmentVariables)).toEqual(['API_KEY', 'REGION']);
    const masked = await t.call(path, { method: 'PATCH', body: { environmentVariables: { OTHER: MASKED_SECRET } } });
    expect(masked.status).toBe(400);
    expect(masked.json.code).toBe('guard.invalid_input');
    expect(
      (await t.call('/api/configs/jwt-customizer/client-credentials', { method: 'PATCH', body: { script } })).status,
    ).toBe(404);
  });

  it('refuses bad input with nothing saved', async () => {
    const before = (await t.call(path)).json;
    // An empty script is stored, as the reference does (compat-jwt-customizer.test.ts).
    for (const body of [
      { script, environmentVariables: { 'BAD NAME': 'x' } },
      { script, environmentVariables: { A: 42 } },
      { script, blockIssuanceOnError: 'yes' },
      { script: 'x'.repeat(64_001) },
      { environmentVariables: {} },
    ]) {
      expectInvalid(await t.call(path, { method: 'PUT', body }), undefined, JSON.stringify(body).slice(0, 60));
    }
    expect((await t.call('/api/configs/jwt-customizer/id-token', { method: 'PUT', body: { script } })).status).toBe(
      400,
    );
    expect((await t.call(path)).json).toEqual(before);
  });

  it('tests a script: the payload with reserved claims dropped, or 422 with the script’s error', async () => {
    const test = (body: Record<string, unknown>) =>
      t.call('/api/configs/jwt-customizer/test', {
        method: 'POST',
        body: { tokenType: 'client-credentials', token: { sub: 'app1', aud: 'https://api' }, ...body },
      });
    const ok = await test({
      script: 'const getCustomJwtClaims = async () => ({ sub: "evil", aud: "x", team: "ops" });',
    });
    expect(ok.json).toEqual({
      payload: { sub: 'app1', aud: 'https://api', team: 'ops' },
      claims: { team: 'ops' },
      droppedClaims: ['sub', 'aud'],
    });
    const thrown = await test({ script: 'const getCustomJwtClaims = async () => { missing.call(); };' });
    expect(thrown.status).toBe(422);
    expect(thrown.json).toMatchObject({
      code: 'jwt_customizer.general',
      message: expect.any(String),
      data: { name: 'ReferenceError', message: expect.stringContaining('missing') },
    });
    const denied = await test({ script: 'const getCustomJwtClaims = async ({ api }) => api.denyAccess("no");' });
    expect(denied.status).toBe(422);
    expect(denied.json).toMatchObject({
      code: 'jwt_customizer.access_denied',
      data: { name: 'AccessDenied', message: 'no' },
    });
    const syntax = await test({ script: 'const getCustomJwtClaims = ;' });
    expect(syntax.json).toMatchObject({ code: 'jwt_customizer.general', data: { name: 'SyntaxError' } });
    const organization = await test({
      script: 'const getCustomJwtClaims = async ({ token }) => ({ org: token.organization_id });',
      token: { sub: 'app1', aud: 'urn:gatehouse:organization:org1' },
    });
    expect(organization.json.claims).toEqual({ org: 'org1' });
    const badUrn = await test({ script, token: { aud: 'urn:gatehouse:organization:' } });
    expect(badUrn.status).toBe(422);
    expect(badUrn.json).toMatchObject({ code: 'jwt_customizer.general', data: { name: 'TypeError' } });
    expectInvalid(await test({ tokenType: 'id-token', script }));
    expectInvalid(await test({ script, token: 'not an object' }));
  });

  it('deletes (204), then 404', async () => {
    expect((await t.call(path, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(path)).status).toBe(404);
    expect((await t.call(path, { method: 'DELETE' })).status).toBe(404);
    expect((await auditEntries(t, 'access-token'))[0]?.key).toBe('Admin.JwtCustomizer.Deleted');
  });

  it('keeps each tenant’s scripts to itself', async () => {
    // Another tenant's script, stored beside this tenant's: the API never shows it, nor runs it.
    await otherTenant(t).insertIfAbsent(tenantConfigs, {
      key: jwtCustomizerConfigKeys['client-credentials'],
      value: { script: 'const getCustomJwtClaims = () => ({ other: 1 });', blockIssuanceOnError: true },
    });
    expect((await t.call('/api/configs/jwt-customizer')).json).toEqual([]);
    expect((await t.call('/api/configs/jwt-customizer/client-credentials')).status).toBe(404);
    expect((await t.call('/api/configs/jwt-customizer/client-credentials', { method: 'DELETE' })).status).toBe(404);
    const stillThere = await otherTenant(t).findOne(
      tenantConfigs,
      eq(tenantConfigs.key, jwtCustomizerConfigKeys['client-credentials']),
    );
    expect(stillThere).toBeDefined();
    // A token for another tenant's API is refused here.
    const adminToken = await t.token({ tenantId: ADMIN_TENANT_ID });
    const wrong = await t.call('/api/configs/jwt-customizer', { headers: { Authorization: `Bearer ${adminToken}` } });
    expect([401, 403]).toContain(wrong.status);
  });

  it('sets the ID token extended claims', async () => {
    expect((await t.call('/api/configs/id-token')).json).toEqual({
      enabledExtendedClaims: ['custom_data', 'identities', 'roles', 'organizations', 'organization_roles'],
    });
    const put = await t.call('/api/configs/id-token', { method: 'PUT', body: { enabledExtendedClaims: ['roles'] } });
    expect(put.json).toEqual({ enabledExtendedClaims: ['roles'] });
    expect((await t.call('/api/configs/id-token')).json).toEqual({ enabledExtendedClaims: ['roles'] });
    expectInvalid(
      await t.call('/api/configs/id-token', { method: 'PUT', body: { enabledExtendedClaims: ['password'] } }),
    );
    expect((await auditEntries(t, 'id-token'))[0]?.key).toBe('Admin.IdTokenConfig.Updated');
  });
});
