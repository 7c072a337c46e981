import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTokenSettings } from '../src/services/jwt-customizer.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { ownTenant } from './support/scenarios.ts';

/**
 * Issue 43: custom JWT (`/configs/jwt-customizer/{tokenTypePath}`) as a client written for the reference management
 * API sends and reads it: an empty script is stored, and the 404 codes of a token type without a script are the
 * reference's (its own integration tests: GET `entity.not_exists_with_id`, DELETE `entity.not_found`).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const accessToken = '/api/configs/jwt-customizer/access-token';
const clientCredentials = '/api/configs/jwt-customizer/client-credentials';

describe('/configs/jwt-customizer/{tokenTypePath} without a script', () => {
  it('answers GET and PATCH with 404 entity.not_exists_with_id, DELETE with 404 entity.not_found', async () => {
    for (const [method, path, body, code] of [
      ['GET', accessToken, undefined, 'entity.not_exists_with_id'],
      ['GET', clientCredentials, undefined, 'entity.not_exists_with_id'],
      ['PATCH', clientCredentials, { blockIssuanceOnError: false }, 'entity.not_exists_with_id'],
      ['DELETE', accessToken, undefined, 'entity.not_found'],
      ['DELETE', clientCredentials, undefined, 'entity.not_found'],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json, `${method} ${path}`).toEqual({ code, message: expect.any(String) });
    }
  });
});

describe('PUT /configs/jwt-customizer/{tokenTypePath} with an empty script', () => {
  it('stores it (201, then 200) and answers it back, as the reference does', async () => {
    const created = await t.call(accessToken, { method: 'PUT', body: { script: '' } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ script: '', blockIssuanceOnError: true });
    const read = await t.call(accessToken);
    expect(read.status).toBe(200);
    expect(read.json.script).toBe('');
    const listed = await t.call('/api/configs/jwt-customizer');
    expect(listed.json).toEqual([{ key: 'jwt.accessToken', value: read.json }]);
    const replaced = await t.call(accessToken, {
      method: 'PUT',
      body: { script: '   ', environmentVariables: { A: 'b' } },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json.script, 'kept as sent').toBe('   ');
    const patched = await t.call(accessToken, { method: 'PATCH', body: { script: '' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.script).toBe('');
  });

  it('customizes no token: a blank script is left out of what the token issuer runs', async () => {
    await t.call(clientCredentials, { method: 'PUT', body: { script: '' } });
    const settings = await readTokenSettings(ownTenant(t));
    expect(settings.customizers).toEqual({});
    const deleted = await t.call(clientCredentials, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
  });

  it('still refuses a script over the length limit or none with 400 guard.invalid_input; drops undeclared fields', async () => {
    for (const body of [{ script: 'x'.repeat(64_001) }, {}]) {
      const response = await t.call(accessToken, { method: 'PUT', body });
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    const undeclared = await t.call(accessToken, { method: 'PUT', body: { script: '', unknown: true } });
    expect(undeclared.status, 'as the reference: an undeclared field is dropped').toBe(200);
    expect(undeclared.json).not.toHaveProperty('unknown');
  });
});
