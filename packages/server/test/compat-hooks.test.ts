import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hooks, users } from '../src/db/tables.ts';
import { queueInteractionEvent } from '../src/services/interaction-events.ts';
import { WebhookWorker } from '../src/services/webhooks-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { ownTenant } from './support/scenarios.ts';

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

  it("subscribes to the reference's whole event list, PostSignInAdaptiveMfaTriggered included (issue 43)", async () => {
    // The reference's `hookEvents`: interaction, data and exception events. Those of areas not built are accepted
    // and never fire (docs/areas/webhooks.md).
    const everyEvent = [
      'PostRegister',
      'PostSignIn',
      'PostSignInAdaptiveMfaTriggered',
      'PostResetPassword',
      'User.Created',
      'User.Deleted',
      'User.Data.Updated',
      'User.SuspensionStatus.Updated',
      'TrustedDevice.Created',
      'TrustedDevice.Deleted',
      'Role.Created',
      'Role.Deleted',
      'Role.Data.Updated',
      'Role.Scopes.Updated',
      'Scope.Created',
      'Scope.Deleted',
      'Scope.Data.Updated',
      'Organization.Created',
      'Organization.Deleted',
      'Organization.Data.Updated',
      'Organization.Membership.Updated',
      'OrganizationRole.Created',
      'OrganizationRole.Deleted',
      'OrganizationRole.Data.Updated',
      'OrganizationRole.Scopes.Updated',
      'OrganizationScope.Created',
      'OrganizationScope.Deleted',
      'OrganizationScope.Data.Updated',
      'Identifier.Lockout',
      'Message.RateLimited',
      'Grant.LimitExceeded',
    ];
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Every event', events: everyEvent, config: { url: 'https://hooks.example.com/every' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.events).toEqual(everyEvent);
    const adaptive = await t.call('/api/hooks', {
      method: 'POST',
      body: hookBody({ events: ['PostSignInAdaptiveMfaTriggered'] }),
    });
    expect(adaptive.status, adaptive.text).toBe(201);
    const legacy = await t.call(`/api/hooks/${adaptive.json.id}`, {
      method: 'PATCH',
      body: { event: 'PostSignInAdaptiveMfaTriggered' },
    });
    expect(legacy.status, legacy.text).toBe(200);
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

  it('answers an unknown hook with 404: entity.not_exists on the updates, entity.not_exists_with_id elsewhere', async () => {
    for (const [method, path, body, code] of [
      ['GET', '/api/hooks/no-such-hook', undefined, 'entity.not_exists_with_id'],
      ['PATCH', '/api/hooks/no-such-hook', { enabled: false }, 'entity.not_exists'],
      ['PATCH', '/api/hooks/no-such-hook', {}, 'entity.not_exists'],
      ['DELETE', '/api/hooks/no-such-hook', undefined, 'entity.not_exists_with_id'],
      ['PATCH', '/api/hooks/no-such-hook/signing-key', undefined, 'entity.not_exists'],
      ['GET', '/api/hooks/no-such-hook/recent-logs', undefined, 'entity.not_exists_with_id'],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json, `${method} ${path}`).toEqual({ code, message: expect.any(String) });
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

/**
 * A receiver written for the reference (issue 43): it reads the signature from `logto-signature-sha-256`, recomputes
 * the hex HMAC-SHA256 of the raw body bytes with the hook's signing key, and parses the reference's fields. It runs on
 * 127.0.0.1 and keeps each request's raw bytes.
 */
describe('deliveries as a receiver written for the reference verifies and parses them', () => {
  type Raw = { headers: IncomingHttpHeaders; body: Buffer };
  let received: Raw[] = [];
  let receiver: Server;
  let url: string;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/logto-webhook`;
    // The hooks of the tests above point at hooks.example.com: nothing is sent there.
    await t.db.update(hooks).set({ enabled: false });
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
  beforeEach(async () => {
    await worker().drain();
    received = [];
  });
  const worker = () => new WebhookWorker({ db: t.db, backoffMs: () => 0, timeoutMs: 2000 });

  /** What the reference's receivers do: the header, then HMAC over the raw bytes, hex, compared in constant time. */
  function verifyAsReferenceReceiver(request: Raw, signingKey: string): Record<string, unknown> {
    const signature = request.headers['logto-signature-sha-256'];
    if (typeof signature !== 'string') throw new Error('no logto-signature-sha-256 header');
    const expected = createHmac('sha256', signingKey).update(request.body).digest('hex');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(timingSafeEqual(Buffer.from(signature), Buffer.from(expected))).toBe(true);
    return JSON.parse(request.body.toString('utf8'));
  }

  it('data hooks: the signature verifies, with path, method, matchedRoute, status, params and data', async () => {
    const hook = await newHook({
      events: ['Role.Created', 'Role.Scopes.Updated', 'Scope.Created'],
      config: { url },
    });
    const role = await t.call('/api/roles', {
      method: 'POST',
      body: { name: 'compat-webhook-role', description: 'r' },
    });
    expect(role.status, role.text).toBeLessThan(300);
    const resource = await t.call('/api/resources', {
      method: 'POST',
      body: { name: 'Compat API', indicator: 'https://compat-webhooks.example.com' },
    });
    const scope = await t.call(`/api/resources/${resource.json.id}/scopes`, {
      method: 'POST',
      body: { name: 'read:compat' },
    });
    expect(scope.status, scope.text).toBe(201);
    const assigned = await t.call(`/api/roles/${role.json.id}/scopes`, {
      method: 'POST',
      body: { scopeIds: [scope.json.id] },
    });
    expect(assigned.status, assigned.text).toBe(201);
    await worker().drain();

    expect(received).toHaveLength(3);
    const byRoute = new Map(
      received.map((request) => {
        const payload = verifyAsReferenceReceiver(request, hook.signingKey);
        // Gatehouse's own header carries the same value.
        expect(request.headers['gatehouse-signature-sha-256']).toBe(request.headers['logto-signature-sha-256']);
        return [`${payload.method} ${payload.matchedRoute}`, payload] as const;
      }),
    );
    expect(byRoute.get('POST /roles')).toMatchObject({
      hookId: hook.id,
      event: 'Role.Created',
      path: '/roles',
      method: 'POST',
      matchedRoute: '/roles',
      status: role.status,
      params: {},
      data: { id: role.json.id, name: 'compat-webhook-role' },
    });
    expect(byRoute.get('POST /resources/:resourceId/scopes')).toMatchObject({
      event: 'Scope.Created',
      path: `/resources/${resource.json.id}/scopes`,
      status: 201,
      params: { resourceId: resource.json.id },
      data: { id: scope.json.id, name: 'read:compat' },
    });
    const scopesUpdated = byRoute.get('POST /roles/:id/scopes');
    expect(scopesUpdated).toMatchObject({
      event: 'Role.Scopes.Updated',
      path: `/roles/${role.json.id}/scopes`,
      method: 'POST',
      status: 201,
      params: { id: role.json.id },
    });
    for (const payload of byRoute.values()) {
      expect(new Date(String(payload.createdAt)).toISOString()).toBe(payload.createdAt);
      // Gatehouse's own fields stay beside the reference's.
      expect(payload).toMatchObject({ deliveryId: expect.any(String), actor: { type: expect.any(String) } });
    }
  });

  it('GET /hooks/{id}/recent-logs answers the attempts as the reference’s Log entries, filtered by logKey and time (issue 43)', async () => {
    await t.db.update(hooks).set({ enabled: false });
    const hook = await newHook({ events: ['Role.Created'], config: { url } });
    const startedAt = Date.now() - 1000;
    const role = await t.call('/api/roles', { method: 'POST', body: { name: 'compat-recent-logs-role' } });
    expect(role.status, role.text).toBe(200);
    await worker().drain();
    expect(received).toHaveLength(1);

    const logs = await t.call(`/api/hooks/${hook.id}/recent-logs?page=1&page_size=20&logKey=TriggerHook.Role.Created`);
    expect(logs.status, logs.text).toBe(200);
    expect(logs.headers.get('Total-Number')).toBe('1');
    const [entry] = logs.json;
    // The reference's `Log`: id, key, payload {key, result, hookId, hookRequest {body}, response {statusCode, body}},
    // createdAt in epoch ms; Gatehouse's own fields stay beside them.
    expect(entry).toMatchObject({
      id: expect.any(String),
      key: 'TriggerHook.Role.Created',
      payload: {
        key: 'TriggerHook.Role.Created',
        result: 'Success',
        hookId: hook.id,
        hookRequest: { body: { hookId: hook.id, event: 'Role.Created', data: { id: role.json.id } } },
        response: { statusCode: 200 },
      },
      createdAt: expect.any(Number),
      attempt: 1,
    });
    expect(entry.payload).not.toHaveProperty('error');
    expect(entry.createdAt).toBeGreaterThanOrEqual(startedAt);

    const query = (params: string) => t.call(`/api/hooks/${hook.id}/recent-logs?${params}`);
    expect((await query('logKey=TriggerHook.User.Created')).json, 'another event').toEqual([]);
    expect((await query('logKey=Interaction.SignIn')).json, 'not a webhook key').toEqual([]);
    expect((await query(`start_time=${startedAt}&end_time=${Date.now() + 60_000}`)).json).toHaveLength(1);
    expect((await query(`start_time=${Date.now() + 60_000}`)).json, 'a window after it').toEqual([]);
    expect((await query(`end_time=${startedAt}`)).json, 'a window before it').toEqual([]);
    const badWindow = await query(`start_time=${Date.now()}&end_time=${startedAt}`);
    expect(badWindow.status).toBe(400);
    expect(badWindow.json.code).toBe('guard.invalid_input');
    const capped = await query('enableCap=true&page=1&page_size=1');
    expect(capped.headers.get('Total-Number')).toBe('1');
  });

  it('a failed attempt is result Error with the error, and without response when nothing answered', async () => {
    // Nothing listens on port 1 of the loopback address: connection refused, no answer.
    await t.db.update(hooks).set({ enabled: false });
    const hook = await newHook({ events: ['Role.Created'], config: { url: 'http://127.0.0.1:1/nobody', retries: 0 } });
    await t.call('/api/roles', { method: 'POST', body: { name: 'compat-recent-logs-failed' } });
    await worker().drain();
    const logs = await t.call(`/api/hooks/${hook.id}/recent-logs?logKey=TriggerHook.Role.Created`);
    expect(logs.status, logs.text).toBe(200);
    expect(logs.json).toHaveLength(1);
    expect(logs.json[0].payload).toMatchObject({ result: 'Error', hookId: hook.id, error: expect.any(String) });
    expect(logs.json[0].payload).not.toHaveProperty('response');
  });

  it('interaction hooks: the signature verifies, with interactionEvent, userId, user, application, userIp', async () => {
    const hook = await newHook({ events: ['PostSignIn'], config: { url } });
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'compat_webhook_user' } });
    expect(user.status, user.text).toBeLessThan(300);
    const row = await ownTenant(t).findOne(users, eq(users.id, user.json.id));
    if (!row) throw new Error('no user row');
    // What a finished sign-in flow queues (services/interaction-events.ts), delivered by the worker.
    await queueInteractionEvent(ownTenant(t), 'PostSignIn', row, {
      applicationId: 'no-such-app',
      ip: '203.0.113.7',
      userAgent: 'Compat/1',
    });
    await worker().drain();
    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('nothing received');
    const payload = verifyAsReferenceReceiver(request, hook.signingKey);
    expect(payload).toMatchObject({
      hookId: hook.id,
      event: 'PostSignIn',
      interactionEvent: 'SignIn',
      userId: user.json.id,
      user: { id: user.json.id, username: 'compat_webhook_user' },
      application: { id: 'no-such-app' },
      userIp: '203.0.113.7',
      userAgent: 'Compat/1',
    });
    expect(payload.user).not.toHaveProperty('passwordDigest');
    expect(new Date(String(payload.createdAt)).toISOString()).toBe(payload.createdAt);
  });
});
