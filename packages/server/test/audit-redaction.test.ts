import { isSecretField, REDACTED_VALUE, redactSecrets } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/** Names of fields that hold secrets, as write paths, connector configs and custom data spell them. */
const secrets = [
  'secret',
  'clientSecret',
  'client_secret',
  'appSecret',
  'totpSecret',
  'webhookSecret',
  'accessKeySecret',
  'secrets',
  'password',
  'newPassword',
  'passwordEncrypted',
  'password_digest',
  'passcode',
  'token',
  'accessToken',
  'refresh_token',
  'idToken',
  'bearerToken',
  'subjectToken',
  'tokenHash',
  'Authorization',
  'Cookie',
  'privateKey',
  'private_key',
  'privateJwk',
  'signingKey',
  'apiKey',
  'api_key',
  'APIKey',
  'X-Api-Key',
  'secretAccessKey',
  'credentials',
  'backupCodes',
  'secretsKeyPrevious',
  'secretValue',
  'otpauthUri',
  'secretQrCode',
];

/** Ordinary fields that merely mention a secret: settings, ids, names and algorithms. */
const ordinary = [
  'signingKeyAlgorithm',
  'signingKeyId',
  'keyId',
  'keys',
  'key',
  'apiKeyName',
  'apiKeyId',
  'accessKeyId',
  'clientId',
  'secretId',
  'secretExpiresAt',
  'refreshTokenTtl',
  'accessTokenTtl',
  'tokenEndpointAuthMethod',
  'tokenType',
  'idTokenConfig',
  'passwordPolicy',
  'passwordAlgorithm',
  'passwordEncryptionMethod',
  'credentialType',
  'publicKey',
  'name',
  'value',
  'code',
];

describe('audit redaction rule', () => {
  it.each(secrets)('hides %s', (name) => {
    expect(isSecretField(name)).toBe(true);
  });

  it.each(ordinary)('shows %s', (name) => {
    expect(isSecretField(name)).toBe(false);
  });

  it('hides secrets at any depth, in lists and in change entries, and keeps markers and yes/no values', () => {
    const payload = {
      keys: [{ id: 'k1', signingKeyAlgorithm: 'RSA', privateKey: 'pem' }],
      config: { headers: { Authorization: 'Bearer x', Accept: 'json' }, clientSecret: '********' },
      hasPassword: true,
      changes: [
        { field: 'clientSecret', before: 'a', after: 'b' },
        { field: 'password', before: 'set', after: 'changed' },
        { field: 'name', before: 'a', after: 'b' },
      ],
    };
    expect(redactSecrets(payload)).toEqual({
      keys: [{ id: 'k1', signingKeyAlgorithm: 'RSA', privateKey: REDACTED_VALUE }],
      config: { headers: { Authorization: REDACTED_VALUE, Accept: 'json' }, clientSecret: '********' },
      hasPassword: true,
      changes: [
        { field: 'clientSecret', before: REDACTED_VALUE, after: REDACTED_VALUE },
        { field: 'password', before: 'set', after: 'changed' },
        { field: 'name', before: 'a', after: 'b' },
      ],
    });
  });
});

describe('audit entries of admin writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keep no secret a write path let through, and every ordinary field', async () => {
    const users = await t.call('/api/users', {
      method: 'POST',
      body: { username: 'partner', customData: { apiKey: 'sk_live_1', apiKeyName: 'partner-key', region: 'eu' } },
    });
    expect(users.status).toBe(200);
    const [entry] = (await t.call('/api/logs?logKey=Admin.User.Created')).json as {
      payload: { after: { customData: Record<string, unknown> }; changes: { field: string; after: unknown }[] };
    }[];
    expect(entry?.payload.after.customData).toEqual({
      apiKey: REDACTED_VALUE,
      apiKeyName: 'partner-key',
      region: 'eu',
    });
    const change = entry?.payload.changes.find((item) => item.field === 'customData');
    expect(change?.after).toEqual({ apiKey: REDACTED_VALUE, apiKeyName: 'partner-key', region: 'eu' });
    expect(JSON.stringify(entry)).not.toContain('sk_live_1');
  });
});
