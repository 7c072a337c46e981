import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonInputProblem, MAX_JSON_DEPTH } from '../src/http/input-guard.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/** Input the database cannot store is a 400 with {code, message}, never a 500 (issue 23, item 3). */
describe('the input guard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const expectRefused = (response: { status: number; json: { code?: string; message?: string; data?: unknown } }) => {
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
    expect(response.json.message).toBeTruthy();
  };

  it('refuses a NUL character in a name, escaped or raw, and saves nothing', async () => {
    for (const rawBody of ['{"name":"bad\\u0000name"}', '{"name":"bad\u0000name"}']) {
      const response = await t.call('/api/roles', { method: 'POST', rawBody });
      expectRefused(response);
      expect(response.json.data).toEqual({ problem: 'nul_character' });
    }
    const roles = await t.call('/api/roles?search=bad');
    expect(roles.json).toEqual([]);
    expectRefused(await t.call('/api/organizations', { method: 'POST', rawBody: '{"name":"x\\u0000"}' }));
    expectRefused(await t.call('/api/applications', { method: 'POST', rawBody: '{"name":"x\\u0000","type":"SPA"}' }));
  });

  it('refuses %00 in a search and in a path id', async () => {
    for (const path of [
      '/api/users?search=%00',
      '/api/roles?search=a%00b',
      '/api/applications/%00',
      '/api/users/ab%00c',
    ]) {
      const response = await t.call(path);
      expectRefused(response);
    }
    // A percent escape that is not UTF-8 is searched for as it is (URLSearchParams keeps it): no error at all.
    expect((await t.call('/api/users?search=%E0%A4%A')).status).toBe(200);
    expectRefused(await t.call('/api/users/%E0%A4%A'));
  });

  it('refuses a lone surrogate in profile fields and custom data', async () => {
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'surrogate_user' } });
    expect(user.status).toBe(200);
    for (const rawBody of [
      '{"profile":{"givenName":"\\ud800"}}',
      '{"profile":{"givenName":"\\udc00x"}}',
      '{"profile":{"givenName":"a\\ud83dz"}}',
    ]) {
      const response = await t.call(`/api/users/${user.json.id}/profile`, { method: 'PATCH', rawBody });
      expectRefused(response);
      expect(response.json.data).toEqual({ problem: 'lone_surrogate' });
    }
    // A real pair (an emoji) is a character like any other.
    const emoji = await t.call(`/api/users/${user.json.id}`, {
      method: 'PATCH',
      rawBody: '{"name":"Ada \\ud83d\\ude00"}',
    });
    expect(emoji.status).toBe(200);
    expect(emoji.json.name).toBe('Ada 😀');
  });

  it(`refuses custom data nested deeper than ${MAX_JSON_DEPTH} levels, and takes it at the limit`, async () => {
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'deep_user' } });
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const deep = await t.call(`/api/users/${user.json.id}/custom-data`, {
      method: 'PATCH',
      rawBody: `{"customData":${nested(5000)}}`,
    });
    expectRefused(deep);
    expect(deep.json.data).toEqual({ problem: 'too_deep' });
    const atLimit = await t.call(`/api/users/${user.json.id}`, {
      method: 'PATCH',
      rawBody: `{"customData":${nested(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(atLimit.status, JSON.stringify(atLimit.json)).toBe(200);
  });

  it('reads JSON strings as JSON: escaped backslashes and quotes are not escapes of their own', () => {
    expect(jsonInputProblem('{"a":"\\\\u0000"}'), 'a backslash, then the text u0000').toBeUndefined();
    expect(jsonInputProblem('{"a":"[[[{{{"}')).toBeUndefined();
    expect(jsonInputProblem('{"a":"\\"}"}')).toBeUndefined();
    expect(jsonInputProblem('{"a":"\\ud83d\\ude00"}')).toBeUndefined();
    expect(jsonInputProblem('{"a":"\\ud83d"}')).toBe('lone_surrogate');
    expect(jsonInputProblem('["\\u0000"]')).toBe('nul_character');
  });
});
