import { randomBytes } from 'node:crypto';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantProviders } from '../src/auth/oidc/provider.ts';
import { sealSecretsAtRest } from '../src/db/seal-at-rest.ts';
import { SecretBox, useSecretBox } from '../src/db/secret-box.ts';
import { TenantDbs } from '../src/db/tenant-db.ts';
import { parseCookieKeys } from '../src/services/oidc-keys.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { TEST_SECRETS_KEY } from './support/secrets.ts';

/**
 * Secrets at rest (issue 23 item 12): what the server must read back is stored sealed by the data layer, whatever
 * service writes it; values from before (plain) and envelopes of a previous key are sealed with the current key by
 * the start-up pass, and everything keeps working.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  useSecretBox(new SecretBox(TEST_SECRETS_KEY));
  await t.close();
});

async function rawValues(query: SQL): Promise<string[]> {
  const result = (await t.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows.map((row) => String(Object.values(row)[0]));
}

const sealedWith = (kid: string) => (value: string) => value.startsWith(`{"v":1,"kid":"${kid}",`);

async function everySecret(): Promise<string[]> {
  return [
    ...(await rawValues(sql`select private_jwk from signing_keys`)),
    ...(await rawValues(sql`select secret from applications`)),
    ...(await rawValues(sql`select value from application_secrets`)),
    ...(await rawValues(sql`select signing_key from hooks`)),
    ...(await rawValues(sql`select config from connectors`)),
    ...(await rawValues(sql`select data from user_mfa_verifications`)),
    ...(await rawValues(sql`select private_key from saml_application_certificates`)),
    ...(await rawValues(
      sql`select value->>'environmentVariables' from tenant_configs where key like 'jwt.%' and value ? 'environmentVariables'`,
    )),
    ...(await rawValues(sql`select headers from hooks`)),
    ...(await rawValues(sql`select value->>'sealed' from tenant_configs where key = 'oidc.cookieKeys'`)),
  ];
}

/** Every stored hook and settings row as text, whatever its columns. */
async function everyRow(): Promise<string> {
  const hooks = await rawValues(sql`select row_to_json(hooks)::text from hooks`);
  const configs = await rawValues(sql`select row_to_json(tenant_configs)::text from tenant_configs`);
  return [...hooks, ...configs].join('\n');
}

/** The default tenant's cookie keys as the OIDC provider signs cookies with them (a fresh provider). */
async function providerCookieKeys(): Promise<unknown> {
  const provider = await new TenantProviders({
    db: t.db,
    tenants: new TenantDbs(t.db),
    config: t.config,
    keys: t.keys,
  }).get(DEFAULT_TENANT_ID);
  return provider?.keys;
}

describe('secrets at rest', () => {
  let machine: { id: string; secret: string };
  let hook: { id: string; signingKey: string };
  const headers = { Authorization: 'Bearer crm-token-at-rest', 'X-Team': 'blue-at-rest' };

  it('are stored sealed, whichever route writes them, and read back in the clear', async () => {
    const app = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'Robot', type: 'MachineToMachine' },
    });
    const secret = await t.call(`/api/applications/${app.json.id}/secrets`, { method: 'POST', body: { name: 'ci' } });
    machine = { id: app.json.id, secret: secret.json.value };
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'CRM', events: ['User.Created'], config: { url: 'https://hooks.example.com/in', headers } },
    });
    hook = { id: created.json.id, signingKey: created.json.signingKey };
    await t.call('/api/configs/oidc/cookie-keys');
    const cookieKeys = await t.call('/api/configs/oidc/cookie-keys/rotate', { method: 'POST', body: {} });
    expect(cookieKeys.json).toHaveLength(2);
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'sealed_user' } });
    const totp = await t.call(`/api/users/${user.json.id}/mfa-verifications`, {
      method: 'POST',
      body: { type: 'Totp' },
    });
    expect(totp.status, totp.text).toBe(201);
    const saml = await t.call('/api/saml-applications', { method: 'POST', body: { name: 'Wiki' } });
    expect(saml.status, saml.text).toBeLessThan(300);
    await t.call('/api/configs/oidc/private-keys/rotate', { method: 'POST', body: {} });
    const script = await t.call('/api/configs/jwt-customizer/client-credentials', {
      method: 'PUT',
      body: { script: 'const getCustomJwtClaims = () => ({});', environmentVariables: { API_KEY: 'sk-jwt-999' } },
    });
    expect(script.status, script.text).toBe(201);

    const stored = await everySecret();
    expect(stored.length).toBeGreaterThan(8);
    const current = new SecretBox(TEST_SECRETS_KEY).keyId;
    expect(stored.filter((value) => !sealedWith(current)(value))).toEqual([]);
    const [cookieKeysRow = ''] = await rawValues(
      sql`select value::text from tenant_configs where tenant_id = ${DEFAULT_TENANT_ID} and key = 'oidc.cookieKeys'`,
    );
    expect(Object.keys(JSON.parse(cookieKeysRow))).toEqual(['sealed']);
    const plainCookieKeys = parseCookieKeys(JSON.parse(cookieKeysRow)).map((key) => key.value);
    expect(plainCookieKeys).toHaveLength(2);
    expect(await providerCookieKeys(), 'the provider signs cookies with the keys in the clear').toEqual(
      plainCookieKeys,
    );
    const everything = `${stored.join('\n')}\n${await everyRow()}`;
    for (const plain of [
      machine.secret,
      hook.signingKey,
      totp.json.secret,
      'sk-jwt-999',
      '"d":',
      'PRIVATE KEY',
      ...Object.values(headers),
      ...plainCookieKeys,
    ]) {
      expect(everything).not.toContain(plain);
    }
    // Read back in the clear where the API shows them.
    const read = await t.call(`/api/hooks/${hook.id}`);
    expect(read.json.signingKey).toBe(hook.signingKey);
    expect(read.json.config).toEqual({ url: 'https://hooks.example.com/in', headers, retries: 3 });
    expect((await t.call('/api/configs/oidc/cookie-keys')).json).toEqual(cookieKeys.json);
    const revealed = await t.call(`/api/applications/${machine.id}/secrets/ci/reveal`, { method: 'POST' });
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.json.value).toBe(machine.secret);
    expect((await t.call('/api/configs/oidc/private-keys')).json).toHaveLength(2);
  });

  it('seals values written before encryption at rest, and re-seals a previous key’s envelopes on rotation', async () => {
    // Values as an older Gatehouse stored them (cookie keys: one with an id, one bare string as before ids).
    const oldHeaders = { Authorization: 'Bearer plain-old-token' };
    await t.db.execute(
      sql`update hooks set signing_key = ${'p'.repeat(64)}, headers = ${JSON.stringify(oldHeaders)} where id = ${hook.id}`,
    );
    const oldCookieKeys = [{ id: 'old-cookie-key', value: 'plain-cookie-secret', createdAt: 1 }, 'bare-cookie-secret'];
    await t.db.execute(
      sql`update tenant_configs set value = ${JSON.stringify(oldCookieKeys)}::jsonb where key = 'oidc.cookieKeys'`,
    );
    const readHook = async () => (await t.call(`/api/hooks/${hook.id}`)).json;
    const cookieKeysApi = async () => (await t.call('/api/configs/oidc/cookie-keys')).json;
    const oldPlain = ['plain-cookie-secret', 'bare-cookie-secret'];
    expect(await readHook()).toMatchObject({ signingKey: 'p'.repeat(64), config: { headers: oldHeaders } });
    const listed = await cookieKeysApi();
    expect(listed).toEqual([
      { id: 'old-cookie-key', createdAt: 1, status: 'Current' },
      { id: expect.any(String), createdAt: null, status: 'Previous' },
    ]);
    expect(await providerCookieKeys()).toEqual(oldPlain);
    expect(await sealSecretsAtRest(t.db)).toEqual({
      'webhook signing keys': 1,
      'webhook headers': 1,
      'OIDC cookie keys': 1,
    });
    expect(await sealSecretsAtRest(t.db)).toEqual({});
    expect((await everySecret()).every(sealedWith(new SecretBox(TEST_SECRETS_KEY).keyId))).toBe(true);
    const rows = await everyRow();
    for (const plain of [...oldPlain, 'plain-old-token', 'p'.repeat(64)]) expect(rows).not.toContain(plain);
    // Read as before, the legacy key keeping its id.
    expect(await readHook()).toMatchObject({ signingKey: 'p'.repeat(64), config: { headers: oldHeaders } });
    expect(await cookieKeysApi()).toEqual(listed);
    expect(await providerCookieKeys()).toEqual(oldPlain);

    // Rotation: the new key seals, the previous one still opens until the pass has run.
    const next = randomBytes(32).toString('base64');
    const rotated = new SecretBox(next, [TEST_SECRETS_KEY]);
    useSecretBox(rotated);
    try {
      const counts = await sealSecretsAtRest(t.db);
      expect(counts['signing keys']).toBeGreaterThan(0);
      expect(counts['webhook signing keys']).toBe(1);
      expect(counts['custom JWT variables']).toBe(1);
      expect(counts['webhook headers']).toBe(1);
      expect(counts['OIDC cookie keys']).toBe(1);
      expect((await everySecret()).every(sealedWith(rotated.keyId))).toBe(true);
      // Only the new key is needed from now on.
      useSecretBox(new SecretBox(next));
      expect(await readHook()).toMatchObject({ signingKey: 'p'.repeat(64), config: { headers: oldHeaders } });
      expect(await cookieKeysApi()).toEqual(listed);
      expect(await providerCookieKeys(), 'cookies signed before the rotation still verify').toEqual(oldPlain);
      const tested = await t.call('/api/configs/jwt-customizer/test', {
        method: 'POST',
        body: {
          tokenType: 'client-credentials',
          script: 'const getCustomJwtClaims = ({ environmentVariables }) => ({ key: environmentVariables.API_KEY });',
          environmentVariables: { API_KEY: '********' },
          token: {},
        },
      });
      expect(tested.json.claims).toEqual({ key: 'sk-jwt-999' });
      const keys = await t.keys.privateKeys(DEFAULT_TENANT_ID);
      expect(keys[0]).toHaveProperty('d');
      // A key that opens nothing is refused loudly, not read as garbage.
      useSecretBox(new SecretBox(randomBytes(32).toString('base64')));
      await expect(t.keys.privateKeys(DEFAULT_TENANT_ID)).rejects.toThrow(/not configured/);
    } finally {
      useSecretBox(new SecretBox(TEST_SECRETS_KEY, [next]));
      await sealSecretsAtRest(t.db);
      useSecretBox(new SecretBox(TEST_SECRETS_KEY));
    }
  });
});
