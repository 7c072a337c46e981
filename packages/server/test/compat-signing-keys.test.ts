import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: OIDC signing keys, cookie keys and the session setting as a client written for the reference management
 * API sends and reads them (section 14 of the reference: `/configs/oidc/{keyType}` and `/configs/oidc/session`).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Key = { id: string; createdAt: number; status?: string; signingKeyAlgorithm?: string };
const keyFields = ['id', 'createdAt', 'signingKeyAlgorithm', 'status', 'effectiveAt'];

function expectNoKeyMaterial(keys: Key[]) {
  for (const key of keys) {
    for (const field of Object.keys(key)) expect(keyFields, `field ${field}`).toContain(field);
    expect(typeof key.id).toBe('string');
    expect(typeof key.createdAt).toBe('number');
  }
}

describe('GET /configs/oidc/{keyType}', () => {
  it('lists private keys as {id, createdAt, signingKeyAlgorithm, status}, without secret material', async () => {
    const response = await t.call('/api/configs/oidc/private-keys');
    expect(response.status).toBe(200);
    expect(response.json.length).toBeGreaterThanOrEqual(1);
    expectNoKeyMaterial(response.json);
    expect(response.json[0]).toMatchObject({
      status: 'Current',
      signingKeyAlgorithm: expect.stringMatching(/^(RSA|EC)$/),
    });
    expect(response.text).not.toMatch(/"d"|privateKey|BEGIN/);
  });

  it('lists cookie keys as {id, createdAt, status}, without the key value', async () => {
    const response = await t.call('/api/configs/oidc/cookie-keys');
    expect(response.status).toBe(200);
    expectNoKeyMaterial(response.json);
    expect(response.json[0]).toMatchObject({ status: 'Current' });
    expect(response.json[0]).not.toHaveProperty('value');
  });

  it('answers 400 guard.invalid_input for a key type the reference does not have', async () => {
    const response = await t.call('/api/configs/oidc/other-keys');
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
  });
});

describe('POST /configs/oidc/{keyType}/rotate', () => {
  it('rotates private keys with {signingKeyAlgorithm} and answers the new list, new key first', async () => {
    const before = (await t.call('/api/configs/oidc/private-keys')).json as Key[];
    const ec = await t.call('/api/configs/oidc/private-keys/rotate', {
      method: 'POST',
      body: { signingKeyAlgorithm: 'EC' },
    });
    expect(ec.status).toBe(200);
    expectNoKeyMaterial(ec.json);
    expect(ec.json[0]).toMatchObject({ status: 'Current', signingKeyAlgorithm: 'EC' });
    expect(ec.json[1]).toMatchObject({ id: before[0]?.id, status: 'Previous' });
    expect((await t.call('/api/configs/oidc/private-keys')).json).toEqual(ec.json);

    const rsa = await t.call('/api/configs/oidc/private-keys/rotate', {
      method: 'POST',
      body: { signingKeyAlgorithm: 'RSA' },
    });
    expect(rsa.json[0]).toMatchObject({ status: 'Current', signingKeyAlgorithm: 'RSA' });
    expect(rsa.json[1]).toMatchObject({ id: ec.json[0].id, status: 'Previous' });
  });

  it('rotates with an empty body and with none (cookie keys have no algorithm)', async () => {
    const before = (await t.call('/api/configs/oidc/cookie-keys')).json as Key[];
    const rotated = await t.call('/api/configs/oidc/cookie-keys/rotate', { method: 'POST', body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.json[0].id).not.toBe(before[0]?.id);
    expect(rotated.json[1]).toMatchObject({ id: before[0]?.id, status: 'Previous' });
    const bare = await t.call('/api/configs/oidc/cookie-keys/rotate', { method: 'POST' });
    expect(bare.status).toBe(200);
    expect(bare.json[0].id).not.toBe(rotated.json[0].id);
  });

  it('refuses an algorithm the reference does not have with 400 guard.invalid_input', async () => {
    const response = await t.call('/api/configs/oidc/private-keys/rotate', {
      method: 'POST',
      body: { signingKeyAlgorithm: 'HS256' },
    });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
  });

  it('refuses rotationGracePeriod with 400 and rotates nothing (kept: README differences)', async () => {
    // The new key is current at once; a client asking for a delay must not believe it got one.
    const before = (await t.call('/api/configs/oidc/private-keys')).json as Key[];
    const response = await t.call('/api/configs/oidc/private-keys/rotate', {
      method: 'POST',
      body: { signingKeyAlgorithm: 'EC', rotationGracePeriod: 3600 },
    });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
    expect(JSON.stringify(response.json.data)).toContain('rotationGracePeriod');
    expect((await t.call('/api/configs/oidc/private-keys')).json).toEqual(before);
  });

  it('keeps the current key: deleting it is 422 oidc.key_required even with a previous key (kept: README)', async () => {
    const keys = (await t.call('/api/configs/oidc/private-keys/rotate', { method: 'POST', body: {} })).json as Key[];
    const [current] = keys as [Key];
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const refused = await t.call(`/api/configs/oidc/private-keys/${current.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('oidc.key_required');
  });
});

describe('DELETE /configs/oidc/{keyType}/{keyId}', () => {
  it('deletes a previous key with 204; an unknown id is 404; the last key is 422 oidc.key_required', async () => {
    for (const keyType of ['private-keys', 'cookie-keys']) {
      const keys = (await t.call(`/api/configs/oidc/${keyType}/rotate`, { method: 'POST', body: {} })).json as Key[];
      expect(keys.length, keyType).toBe(2);
      const [current, previous] = keys as [Key, Key];
      const deleted = await t.call(`/api/configs/oidc/${keyType}/${previous.id}`, { method: 'DELETE' });
      expect(deleted.status, keyType).toBe(204);
      expect(deleted.text).toBe('');
      expect((await t.call(`/api/configs/oidc/${keyType}`)).json.map((key: Key) => key.id)).toEqual([current.id]);

      const unknown = await t.call(`/api/configs/oidc/${keyType}/no-such-key`, { method: 'DELETE' });
      expect(unknown.status, keyType).toBe(404);
      expect(unknown.json.code, `${keyType}: the reference’s code (issue 43)`).toBe('oidc.key_not_found');
      const last = await t.call(`/api/configs/oidc/${keyType}/${current.id}`, { method: 'DELETE' });
      expect(last.status, keyType).toBe(422);
      expect(last.json.code, keyType).toBe('oidc.key_required');
      expect((await t.call(`/api/configs/oidc/${keyType}`)).json).toHaveLength(1);
    }
  });
});

describe('GET/PATCH /configs/oidc/session', () => {
  it('answers {ttl} in seconds and takes {ttl} within 1..31 536 000', async () => {
    const got = await t.call('/api/configs/oidc/session');
    expect(got.status).toBe(200);
    expect(typeof got.json.ttl).toBe('number');
    const patched = await t.call('/api/configs/oidc/session', { method: 'PATCH', body: { ttl: 86_400 } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ ttl: 86_400 });
    expect((await t.call('/api/configs/oidc/session')).json.ttl).toBe(86_400);
    for (const ttl of [1, 31_536_000]) {
      const edge = await t.call('/api/configs/oidc/session', { method: 'PATCH', body: { ttl } });
      expect(edge.status, String(ttl)).toBe(200);
    }
    for (const ttl of [0, 31_536_001, 1.5, '3600']) {
      const refused = await t.call('/api/configs/oidc/session', { method: 'PATCH', body: { ttl } });
      expect(refused.status, String(ttl)).toBe(400);
      expect(refused.json.code).toBe('guard.invalid_input');
    }
  });
});
