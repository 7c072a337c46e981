import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: webhooks as a client written for the reference management API sends and reads them (section 9 of the
 * reference). `POST /hooks/{id}/test` (204, 422 with the outcome, the `{events, config}` body) is in hooks-delivery.test.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
const hookBody = (extra: Record<string, unknown> = {}) => ({
  name: `compat hook ${++counter}`,
  events: ['PostRegister', 'User.Created'],
  config: { url: `https://hooks.example.com/in/${counter}` },
  ...extra,
});
async function newHook(extra: Record<string, unknown> = {}) {
  const response = await t.call('/api/hooks', { method: 'POST', body: hookBody(extra) });
  expect(response.status, response.text).toBe(201);
  return response.json as Record<string, unknown> & { id: string; signingKey: string };
}

describe('POST /hooks', () => {
  it('creates from {name, events, config {url, headers}, enabled} with 201 and a generated signingKey', async () => {
    const body = {
      name: 'Reference hook',
      events: ['PostSignIn', 'Role.Scopes.Updated'],
      config: { url: 'https://hooks.example.com/reference', headers: { 'X-Api-Key': 'secret-value' } },
      enabled: true,
    };
    const response = await t.call('/api/hooks', { method: 'POST', body });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      name: 'Reference hook',
      events: ['PostSignIn', 'Role.Scopes.Updated'],
      config: { url: 'https://hooks.example.com/reference', headers: { 'X-Api-Key': 'secret-value' } },
      enabled: true,
    });
    expect(response.json.signingKey).toMatch(/^\S{16,}$/);
    expect(typeof response.json.id).toBe('string');
    expect(typeof response.json.createdAt).toBe('number');
  });

  it('accepts the legacy single `event` on create and update, stored as events: [event]', async () => {
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Legacy hook', event: 'PostRegister', config: { url: 'https://hooks.example.com/legacy' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.events).toEqual(['PostRegister']);
    const patched = await t.call(`/api/hooks/${created.json.id}`, { method: 'PATCH', body: { event: 'PostSignIn' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.events).toEqual(['PostSignIn']);
    expect((await t.call(`/api/hooks/${created.json.id}`)).json.events).toEqual(['PostSignIn']);
    const both = await t.call('/api/hooks', {
      method: 'POST',
      body: hookBody({ event: 'PostRegister', events: ['User.Deleted'] }),
    });
    expect(both.status).toBe(201);
    expect(both.json.events, 'events wins over the legacy event').toEqual(['User.Deleted']);
    const unknown = await t.call('/api/hooks', { method: 'POST', body: hookBody({ event: 'No.Such.Event' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe('guard.invalid_input');
  });

  it('is enabled by default', async () => {
    expect((await newHook()).enabled).toBe(true);
    expect((await newHook({ enabled: false })).enabled).toBe(false);
  });

  it('refuses an empty or repeated events list and a missing url with 400 guard.invalid_input', async () => {
    for (const body of [
      hookBody({ events: [] }),
      hookBody({ events: ['PostSignIn', 'PostSignIn'] }),
      hookBody({ config: {} }),
      hookBody({ config: { url: 'not a url' } }),
      { events: ['PostSignIn'], config: { url: 'https://hooks.example.com' } },
      { name: 'no events', config: { url: 'https://hooks.example.com' } },
    ]) {
      const response = await t.call('/api/hooks', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
  });
});

describe('GET/PATCH/DELETE /hooks/{id}, PATCH /hooks/{id}/signing-key', () => {
  it('gets with 200, patches any subset (incl. enabled) with 200 and deletes with 204', async () => {
    const hook = await newHook();
    const got = await t.call(`/api/hooks/${hook.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: hook.id, name: hook.name, signingKey: hook.signingKey });
    const disabled = await t.call(`/api/hooks/${hook.id}`, { method: 'PATCH', body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ id: hook.id, enabled: false, name: hook.name, events: hook.events });
    const changed = await t.call(`/api/hooks/${hook.id}`, {
      method: 'PATCH',
      body: { name: 'Renamed hook', events: ['User.Deleted'], config: { url: 'https://hooks.example.com/new' } },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({
      name: 'Renamed hook',
      events: ['User.Deleted'],
      config: { url: 'https://hooks.example.com/new' },
      enabled: false,
    });
    const deleted = await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/api/hooks/${hook.id}`)).status).toBe(404);
  });

  it('answers an unknown hook with 404 entity.not_exists_with_id everywhere', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/hooks/no-such-hook', undefined],
      ['PATCH', '/api/hooks/no-such-hook', { enabled: false }],
      ['DELETE', '/api/hooks/no-such-hook', undefined],
      ['PATCH', '/api/hooks/no-such-hook/signing-key', undefined],
      ['GET', '/api/hooks/no-such-hook/recent-logs', undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json.code, `${method} ${path}`).toBe('entity.not_exists_with_id');
    }
  });

  it('rotates the signing key with PATCH /hooks/{id}/signing-key (no body) and answers the hook', async () => {
    const hook = await newHook();
    const rotated = await t.call(`/api/hooks/${hook.id}/signing-key`, { method: 'PATCH' });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({ id: hook.id, name: hook.name });
    expect(rotated.json.signingKey).not.toBe(hook.signingKey);
    expect((await t.call(`/api/hooks/${hook.id}`)).json.signingKey).toBe(rotated.json.signingKey);
  });
});

describe('GET /hooks (optional pagination, includeExecutionStats)', () => {
  it('answers every hook without Total-Number, and a page with it', async () => {
    await newHook();
    await newHook();
    const whole = await t.call('/api/hooks');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Total-Number')).toBeNull();
    expect(whole.json.length).toBeGreaterThanOrEqual(2);
    expect(whole.json[0]).not.toHaveProperty('executionStats');
    const page = await t.call('/api/hooks?page=1&page_size=1');
    expect(page.headers.get('Total-Number')).toBe(String(whole.json.length));
    expect(page.json).toHaveLength(1);
  });

  it('adds executionStats {successCount, requestCount} on list and get with includeExecutionStats=true', async () => {
    const hook = await newHook();
    const list = await t.call('/api/hooks?includeExecutionStats=true');
    expect(list.status).toBe(200);
    for (const item of list.json) {
      expect(item.executionStats).toEqual({ successCount: expect.any(Number), requestCount: expect.any(Number) });
    }
    const one = await t.call(`/api/hooks/${hook.id}?includeExecutionStats=true`);
    expect(one.status).toBe(200);
    expect(one.json.executionStats).toEqual({ successCount: 0, requestCount: 0 });
  });
});

describe('GET /hooks/{id}/recent-logs', () => {
  it('is paginated with Total-Number', async () => {
    const hook = await newHook();
    const logs = await t.call(`/api/hooks/${hook.id}/recent-logs?page=1&page_size=20`);
    expect(logs.status).toBe(200);
    expect(logs.json).toEqual([]);
    expect(logs.headers.get('Total-Number')).toBe('0');
  });
});
