import { randomBytes } from 'node:crypto';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecretsAtRest } from '../src/db/seal-at-rest.ts';
import { SecretBox, useSecretBox } from '../src/db/secret-box.ts';
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
  ];
}

describe('secrets at rest', () => {
  let machine: { id: string; secret: string };
  let hook: { id: string; signingKey: string };

  it('are stored sealed, whichever route writes them, and read back in the clear', async () => {
    const app = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'Robot', type: 'MachineToMachine' },
    });
    const secret = await t.call(`/api/applications/${app.json.id}/secrets`, { method: 'POST', body: { name: 'ci' } });
    machine = { id: app.json.id, secret: secret.json.value };
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'CRM', events: ['User.Created'], config: { url: 'https://hooks.example.com/in' } },
    });
    hook = { id: created.json.id, signingKey: created.json.signingKey };
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
    expect(stored.length).toBeGreaterThan(6);
    const current = new SecretBox(TEST_SECRETS_KEY).keyId;
    expect(stored.filter((value) => !sealedWith(current)(value))).toEqual([]);
    const everything = stored.join('\n');
    for (const plain of [machine.secret, hook.signingKey, totp.json.secret, 'sk-jwt-999', '"d":', 'PRIVATE KEY']) {
      expect(everything).not.toContain(plain);
    }
    // Read back in the clear where the API shows them.
    expect((await t.call(`/api/hooks/${hook.id}`)).json.signingKey).toBe(hook.signingKey);
    const revealed = await t.call(`/api/applications/${machine.id}/secrets/ci/reveal`, { method: 'POST' });
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.json.value).toBe(machine.secret);
    expect((await t.call('/api/configs/oidc/private-keys')).json).toHaveLength(2);
  });

  it('seals values written before encryption at rest, and re-seals a previous key’s envelopes on rotation', async () => {
    // A value as an older Gatehouse stored it.
    await t.db.execute(sql`update hooks set signing_key = ${'p'.repeat(64)} where id = ${hook.id}`);
    expect((await t.call(`/api/hooks/${hook.id}`)).json.signingKey).toBe('p'.repeat(64));
    expect(await sealSecretsAtRest(t.db)).toEqual({ 'webhook signing keys': 1 });
    expect(await sealSecretsAtRest(t.db)).toEqual({});
    expect((await t.call(`/api/hooks/${hook.id}`)).json.signingKey).toBe('p'.repeat(64));

    // Rotation: the new key seals, the previous one still opens until the pass has run.
    const next = randomBytes(32).toString('base64');
    const rotated = new SecretBox(next, [TEST_SECRETS_KEY]);
    useSecretBox(rotated);
    try {
      const counts = await sealSecretsAtRest(t.db);
      expect(counts['signing keys']).toBeGreaterThan(0);
      expect(counts['webhook signing keys']).toBe(1);
      expect(counts['custom JWT variables']).toBe(1);
      expect((await everySecret()).every(sealedWith(rotated.keyId))).toBe(true);
      // Only the new key is needed from now on.
      useSecretBox(new SecretBox(next));
      expect((await t.call(`/api/hooks/${hook.id}`)).json.signingKey).toBe('p'.repeat(64));
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
