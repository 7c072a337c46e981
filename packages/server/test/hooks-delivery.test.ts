import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateId } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookDeliveries, hookLogs, outbox } from '../src/db/tables.ts';
import { INTERRUPTED_ATTEMPT, WebhookWorker } from '../src/services/webhooks-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { ownTenant } from './support/scenarios.ts';

/** A real HTTP receiver on 127.0.0.1: `/ok` answers 200, `/fail` 500, `/flaky` 503 the first time then 200, `/slow` after 2 s. */
type Received = { path: string; headers: IncomingHttpHeaders; body: string };
let received: Received[] = [];
/** Answers of `/hold` requests not given yet, and who waits for the next one to arrive. */
const held: (() => void)[] = [];
const heldWaiters: (() => void)[] = [];
const nextHeld = () => new Promise<void>((resolve) => heldWaiters.push(resolve));
let receiver: Server;
let base: string;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/flaky') && received.filter((request) => request.path === path).length === 1) {
        response.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy');
      } else if (path.startsWith('/fail')) {
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
      } else if (path.startsWith('/hold')) {
        // Answered when the test says so: the attempt is in flight for as long as the test needs.
        held.push(() => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('released'));
        for (const waiter of heldWaiters.splice(0)) waiter();
      } else if (path.startsWith('/slow')) {
        setTimeout(() => response.writeHead(200).end('late'), 2000).unref();
      } else {
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await t.close();
});
beforeEach(async () => {
  // Each test starts with the earlier tests' events delivered and forgotten.
  await worker().drain();
  received = [];
});

const worker = (timeoutMs = 1000) => new WebhookWorker({ db: t.db, backoffMs: () => 0, timeoutMs });
const createHook = async (body: Record<string, unknown>) => {
  const response = await t.call('/api/hooks', { method: 'POST', body });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as { id: string; signingKey: string };
};
const createScope = async (name: string) => {
  const response = await t.call('/api/organization-scopes', { method: 'POST', body: { name } });
  expect(response.status).toBe(201);
  return response.json as { id: string; name: string };
};
const hmac = (body: string, key: string) => createHmac('sha256', key).update(body).digest('hex');
const recentLogs = async (hookId: string, query = '') => {
  const response = await t.call(`/api/hooks/${hookId}/recent-logs${query}`);
  expect(response.status).toBe(200);
  return response;
};

describe('webhook delivery', () => {
  it('POSTs the event as signed JSON with the custom headers, once, and records the attempt', async () => {
    const hook = await createHook({
      name: 'Receiver',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/ok?src=gatehouse`, headers: { 'X-Api-Key': 'k-123' } },
    });
    const scope = await createScope('read:reports');
    await worker().drain();

    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('nothing received');
    expect(request.path).toBe('/ok?src=gatehouse');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-api-key']).toBe('k-123');
    expect(request.headers['gatehouse-signature-sha-256']).toBe(hmac(request.body, hook.signingKey));
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      hookId: hook.id,
      event: 'OrganizationScope.Created',
      data: { id: scope.id, name: 'read:reports' },
      actor: { type: 'user' },
    });
    expect(new Date(body.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const logs = await recentLogs(hook.id);
    expect(logs.headers.get('Total-Number')).toBe('1');
    expect(logs.json[0]).toMatchObject({
      hookId: hook.id,
      event: 'OrganizationScope.Created',
      attempt: 1,
      success: true,
      responseStatus: 200,
      responseBody: 'thanks',
      error: null,
      request: { url: `${base}/ok?src=gatehouse`, body: request.body },
    });
    expect(logs.json[0].request.headers['X-Api-Key'], 'header values are not kept in the log').toBe('[redacted]');
    // At rest: the hook's headers are sealed and the attempt log holds them redacted (docs/areas/security.md).
    const stored = (await t.db.execute(
      sql`select row_to_json(hooks)::text as row from hooks where id = ${hook.id}
          union all select row_to_json(hook_logs)::text from hook_logs where hook_id = ${hook.id}`,
    )) as unknown as { rows: { row: string }[] };
    expect(stored.rows).toHaveLength(2);
    for (const { row } of stored.rows) expect(row).not.toContain('k-123');
    expect(logs.json[0].durationMs).toBeGreaterThanOrEqual(0);
    const detail = await t.call(`/api/hooks/${hook.id}/recent-logs/${logs.json[0].id}`);
    expect(detail.json).toEqual(logs.json[0]);
    const listed = (await t.call('/api/hooks?includeExecutionStats=true')).json as { id: string }[];
    expect(listed.find((item) => item.id === hook.id)).toMatchObject({
      executionStats: { requestCount: 1, successCount: 1 },
    });
    expect((await t.call(`/api/hooks/${hook.id}`)).json.executionStats).toBeUndefined();

    // Delivered once: later runs, and a fresh worker as after a restart, send nothing again.
    await worker().drain();
    await worker().drain();
    expect(received).toHaveLength(1);
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });

  it('retries a failing endpoint up to the hook’s retries and logs every attempt', async () => {
    const hook = await createHook({
      name: 'Failing',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/fail`, retries: 2 },
    });
    const noRetries = await createHook({
      name: 'Failing once',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/fail-once`, retries: 0 },
    });
    const write = await t.call('/api/organization-scopes', { method: 'POST', body: { name: 'write:reports' } });
    expect(write.status, 'the admin write does not wait for or fail with the receiver').toBe(201);
    await worker().drain();

    expect(received.filter((request) => request.path === '/fail')).toHaveLength(3);
    expect(received.filter((request) => request.path === '/fail-once')).toHaveLength(1);
    const bodies = new Set(received.filter((request) => request.path === '/fail').map((request) => request.body));
    expect(bodies.size, 'each attempt sends the same body').toBe(1);
    const logs = await recentLogs(hook.id);
    expect(logs.headers.get('Total-Number')).toBe('3');
    expect(logs.json.map((log: { attempt: number }) => log.attempt)).toEqual([3, 2, 1]);
    for (const log of logs.json) {
      expect(log).toMatchObject({ success: false, responseStatus: 500, responseBody: 'boom' });
      expect(log.error).toContain('500');
    }
    expect((await recentLogs(hook.id, '?status=failed')).headers.get('Total-Number')).toBe('3');
    expect((await recentLogs(hook.id, '?status=success')).headers.get('Total-Number')).toBe('0');
    expect((await recentLogs(hook.id, '?event=OrganizationScope.Created')).headers.get('Total-Number')).toBe('3');
    expect((await recentLogs(hook.id, '?event=User.Created')).headers.get('Total-Number')).toBe('0');
    const unknown = await t.call(`/api/hooks/${hook.id}/recent-logs?event=Not.An.Event`);
    expect(unknown.status, 'an unknown event is refused').toBe(400);
    expect((await recentLogs(hook.id, '?page=2&page_size=2')).json).toHaveLength(1);
    expect((await recentLogs(noRetries.id)).headers.get('Total-Number')).toBe('1');
    expect((await t.call(`/api/hooks/${hook.id}?includeExecutionStats=true`)).json.executionStats).toEqual({
      requestCount: 3,
      successCount: 0,
    });
    const deliveries = await ownTenant(t).findMany(hookDeliveries, { where: eq(hookDeliveries.hookId, hook.id) });
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual([['failed', 3]]);

    // Given up: nothing more is sent.
    await worker().drain();
    expect(received).toHaveLength(4);
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
    await t.call(`/api/hooks/${noRetries.id}`, { method: 'DELETE' });
  });

  it('numbers each attempt of a delivery out of the attempts allowed, with what each one got', async () => {
    const hook = await createHook({
      name: 'Flaky',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/flaky`, retries: 2 },
    });
    await createScope('flaky:scope');
    await worker().drain();
    expect(received.filter((request) => request.path === '/flaky')).toHaveLength(2);
    const logs = (await recentLogs(hook.id)).json as Record<string, unknown>[];
    expect(logs).toMatchObject([
      { attempt: 2, maxAttempts: 3, success: true, responseStatus: 200, responseBody: 'thanks', errorKind: null },
      { attempt: 1, maxAttempts: 3, success: false, responseStatus: 503, responseBody: 'busy', errorKind: null },
    ]);
    expect(logs[0]?.deliveryId).toBe(logs[1]?.deliveryId);
    // A replay is an attempt of its own.
    const replay = await t.call(`/api/hooks/${hook.id}/recent-logs/${logs[1]?.id}/replay`, { method: 'POST' });
    expect(replay.json).toMatchObject({ attempt: 1, maxAttempts: 1, responseStatus: 200 });
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });

  it('records a timeout and a refused connection as failed attempts, and says which', async () => {
    const hook = await createHook({
      name: 'Slow',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/slow`, retries: 0 },
    });
    // A port nothing listens on: the connection is refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await createHook({
      name: 'Nobody home',
      events: ['OrganizationScope.Created'],
      config: { url: `http://127.0.0.1:${closedPort}/hook`, retries: 0 },
    });
    await createScope('slow:scope');
    await worker(200).drain();
    const [log] = (await recentLogs(hook.id)).json;
    expect(log).toMatchObject({
      success: false,
      responseStatus: null,
      error: 'No answer within 200 ms.',
      errorKind: 'timeout',
      attempt: 1,
      maxAttempts: 1,
    });
    const [refusedLog] = (await recentLogs(refused.id)).json;
    expect(refusedLog).toMatchObject({ success: false, responseStatus: null, errorKind: 'refused' });
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
    await t.call(`/api/hooks/${refused.id}`, { method: 'DELETE' });
  });

  it('records each attempt before sending it, so an attempt cut short by a crash stays in the log', async () => {
    const hook = await createHook({
      name: 'In flight',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/hold`, retries: 0 },
    });
    await createScope('in-flight:scope');
    const arrived = nextHeld();
    const delivering = worker(30_000).drain();
    await arrived;
    // The endpoint holds the request: the attempt is already recorded, so a kill -9 now leaves it as interrupted.
    const inFlight = await t.db.select().from(hookLogs).where(eq(hookLogs.hookId, hook.id));
    expect(inFlight).toHaveLength(1);
    expect(inFlight[0]).toMatchObject({
      attempt: 1,
      responseStatus: null,
      error: INTERRUPTED_ATTEMPT,
      errorKind: 'interrupted',
    });
    for (const release of held.splice(0)) release();
    await delivering;
    const after = await t.db.select().from(hookLogs).where(eq(hookLogs.hookId, hook.id));
    expect(after, 'the answer completes the same row').toHaveLength(1);
    expect(after[0]).toMatchObject({ id: inFlight[0]?.id, responseStatus: 200, responseBody: 'released', error: null });
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });

  it('sends nothing to a disabled hook or for an event a hook did not subscribe to, and never internal events', async () => {
    const disabled = await createHook({
      name: 'Disabled',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/ok/disabled` },
      enabled: false,
    });
    const other = await createHook({
      name: 'Other event',
      events: ['OrganizationScope.Deleted'],
      config: { url: `${base}/ok/other` },
    });
    await createScope('quiet:scope');
    await ownTenant(t).insert(outbox, {
      event: 'OrganizationInvitation.MessageRequested',
      payload: { event: 'OrganizationInvitation.MessageRequested', data: {} },
    });
    await worker().drain();
    expect(received).toEqual([]);
    expect((await recentLogs(disabled.id)).json).toEqual([]);
    expect((await recentLogs(other.id)).json).toEqual([]);
    const internal = await ownTenant(t).findMany(outbox, {
      where: eq(outbox.event, 'OrganizationInvitation.MessageRequested'),
    });
    expect(
      internal.map((row) => row.processedAt),
      'left for the mail worker',
    ).toEqual([null]);
    await ownTenant(t).delete(outbox, eq(outbox.event, 'OrganizationInvitation.MessageRequested'));
    await t.call(`/api/hooks/${disabled.id}`, { method: 'DELETE' });
    await t.call(`/api/hooks/${other.id}`, { method: 'DELETE' });
  });

  it('delivers each event once when two workers run at the same time', async () => {
    const hook = await createHook({
      name: 'Race',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/ok/race` },
    });
    const names = Array.from({ length: 12 }, (_, i) => `race:${i}`);
    for (const name of names) await createScope(name);
    // A generous timeout: on a loaded machine a 1 s one can expire, and a timed-out attempt is rightly sent again
    // (at least once), which is not what this test is about (one claim per delivery).
    await Promise.all([worker(15_000).drain(), worker(15_000).drain(), worker(15_000).drain()]);
    const got = received.filter((request) => request.path === '/ok/race').map((request) => JSON.parse(request.body));
    expect(got.map((body) => body.data.name).sort()).toEqual([...names].sort());
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });

  it('runs in the background once started and stops', async () => {
    const hook = await createHook({
      name: 'Background',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/ok/bg` },
    });
    const running = new WebhookWorker({ db: t.db, intervalMs: 20, backoffMs: () => 0, timeoutMs: 1000 });
    running.start();
    try {
      await createScope('background:scope');
      const deadline = Date.now() + 10_000;
      while (!received.some((request) => request.path === '/ok/bg') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(received.filter((request) => request.path === '/ok/bg')).toHaveLength(1);
    } finally {
      await running.stop();
    }
    await createScope('after-stop:scope');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      received.filter((request) => request.path === '/ok/bg'),
      'a stopped worker sends nothing',
    ).toHaveLength(1);
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });
});

describe('retention', () => {
  it('purges attempts and finished deliveries older than the retention, keeping recent ones and pending work', async () => {
    const hook = await createHook({ name: 'Old', events: ['User.Created'], config: { url: `${base}/ok/old` } });
    const tenant = ownTenant(t);
    const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    const request = { url: `${base}/ok/old`, headers: {}, body: '{}' };
    const log = (id: string, createdAt?: Date) =>
      tenant.insert(hookLogs, {
        id,
        hookId: hook.id,
        event: 'User.Created',
        attempt: 1,
        request,
        durationMs: 5,
        responseStatus: 200,
        ...(createdAt ? { createdAt } : {}),
      });
    await log('old-log', old);
    await log('new-log');
    const delivery = (id: string, status: string, createdAt: Date) =>
      tenant.insert(hookDeliveries, {
        id,
        hookId: hook.id,
        event: 'User.Created',
        payload: {},
        status,
        createdAt,
        nextAttemptAt: new Date(Date.now() + 3_600_000),
      });
    await delivery(generateId(), 'succeeded', old);
    const pendingId = generateId();
    await delivery(pendingId, 'pending', old);
    await worker().purge();
    expect((await tenant.findMany(hookLogs, { where: eq(hookLogs.hookId, hook.id) })).map((row) => row.id)).toEqual([
      'new-log',
    ]);
    expect(
      (await tenant.findMany(hookDeliveries, { where: eq(hookDeliveries.hookId, hook.id) })).map((row) => row.id),
    ).toEqual([pendingId]);
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });
});

describe('test send and replay', () => {
  it('sends a signed sample payload now and reports the answer, without logging it', async () => {
    const hook = await createHook({
      name: 'Tested',
      events: ['User.Created'],
      config: { url: `${base}/ok/test`, headers: { 'X-Team': 'blue' } },
    });
    const prefer = { Prefer: 'return=representation' };
    const result = await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST', headers: prefer });
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ success: true, responseStatus: 200, responseBody: 'thanks', error: null });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.headers['x-team']).toBe('blue');
    expect(request?.headers['gatehouse-signature-sha-256']).toBe(hmac(request?.body ?? '', hook.signingKey));
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      hookId: hook.id,
      event: 'User.Created',
      data: { test: true },
    });
    // As the reference: 204 without the preference.
    const chosen = await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST', body: { event: 'PostSignIn' } });
    expect(chosen.status).toBe(204);
    expect(chosen.text).toBe('');
    expect(JSON.parse(received[1]?.body ?? '{}').event).toBe('PostSignIn');
    expect((await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST', body: { event: 'Nope' } })).status).toBe(400);
    expect((await recentLogs(hook.id)).json).toEqual([]);

    await t.call(`/api/hooks/${hook.id}`, { method: 'PATCH', body: { config: { url: `${base}/fail/test` } } });
    const failed = await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST', headers: prefer });
    expect(failed.status).toBe(422);
    expect(failed.json).toMatchObject({
      code: 'hook.endpoint_responded_with_error',
      data: { success: false, responseStatus: 500, responseBody: 'boom' },
    });
    await t.call(`/api/hooks/${hook.id}`, { method: 'PATCH', body: { config: { url: 'http://127.0.0.1:1/closed' } } });
    const unreachable = await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST' });
    expect(unreachable.status).toBe(422);
    expect(unreachable.json).toMatchObject({
      code: 'hook.send_test_payload_failed',
      data: { success: false, responseStatus: null },
    });
    expect(unreachable.json.data.error).toBeTruthy();
  });

  it("takes the reference's body: a sample per event of `events`, to `config`'s endpoint instead of the saved one", async () => {
    const hook = await createHook({
      name: 'Reference test',
      events: ['User.Created'],
      config: { url: `${base}/fail/x` },
    });
    const before = received.length;
    const tested = await t.call(`/api/hooks/${hook.id}/test`, {
      method: 'POST',
      body: {
        events: ['User.Created', 'PostRegister'],
        config: { url: `${base}/ok/unsaved`, headers: { 'X-Try': '1' } },
      },
    });
    expect(tested.status).toBe(204);
    const sent = received.slice(before);
    expect(sent.map((request) => JSON.parse(request.body).event)).toEqual(['User.Created', 'PostRegister']);
    expect(sent.every((request) => request.headers['x-try'] === '1')).toBe(true);
    expect((await t.call(`/api/hooks/${hook.id}`)).json.config.url, 'the saved endpoint is unchanged').toBe(
      `${base}/fail/x`,
    );
    const bad = await t.call(`/api/hooks/${hook.id}/test`, { method: 'POST', body: { config: { url: 'not a url' } } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('guard.invalid_input');
    // The first failure stops the run: the second event is not sent.
    const stopped = received.length;
    const failed = await t.call(`/api/hooks/${hook.id}/test`, {
      method: 'POST',
      body: { events: ['User.Created', 'PostRegister'] },
    });
    expect(failed.status).toBe(422);
    expect(received.length - stopped).toBe(1);
    await t.call(`/api/hooks/${hook.id}`, { method: 'DELETE' });
  });

  it('replays one recorded delivery with the same body, signed with the current key', async () => {
    const hook = await createHook({
      name: 'Replayed',
      events: ['OrganizationScope.Created'],
      config: { url: `${base}/fail/replay`, retries: 0 },
    });
    await createScope('replay:scope');
    await worker().drain();
    const [original] = (await recentLogs(hook.id)).json;
    expect(original).toMatchObject({ success: false, responseStatus: 500 });

    await t.call(`/api/hooks/${hook.id}`, { method: 'PATCH', body: { config: { url: `${base}/ok/replay` } } });
    const rotated = (await t.call(`/api/hooks/${hook.id}/signing-key`, { method: 'PATCH' })).json.signingKey as string;
    const replay = await t.call(`/api/hooks/${hook.id}/recent-logs/${original.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(201);
    expect(replay.json).toMatchObject({
      replayOf: original.id,
      deliveryId: original.deliveryId,
      success: true,
      responseStatus: 200,
      request: { url: `${base}/ok/replay`, body: original.request.body },
    });
    const last = received.at(-1);
    expect(last?.path).toBe('/ok/replay');
    expect(last?.body).toBe(original.request.body);
    expect(last?.headers['gatehouse-signature-sha-256']).toBe(hmac(original.request.body, rotated));
    const logs = await recentLogs(hook.id);
    expect(logs.json.map((log: { id: string }) => log.id)).toEqual([replay.json.id, original.id]);

    const other = await createHook({ name: 'Other', events: ['User.Created'], config: { url: `${base}/ok` } });
    expect((await t.call(`/api/hooks/${other.id}/recent-logs/${original.id}`)).status).toBe(404);
    expect((await t.call(`/api/hooks/${other.id}/recent-logs/${original.id}/replay`, { method: 'POST' })).status).toBe(
      404,
    );
    expect((await t.call(`/api/hooks/${hook.id}/recent-logs/unknown/replay`, { method: 'POST' })).status).toBe(404);
  });
});
