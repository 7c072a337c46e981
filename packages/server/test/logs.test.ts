import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_COUNT_CAP } from '../src/services/logs.ts';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let startedAt: number;
beforeAll(async () => {
  t = await createTestApp();
  startedAt = Date.now() - 1000;
  const alice = `Bearer ${await t.token({ subject: 'alice' })}`;
  const bob = `Bearer ${await t.token({ subject: 'bob' })}`;
  await t.call('/api/roles', { method: 'POST', body: { name: 'by-alice' }, headers: { Authorization: alice } });
  await t.call('/api/roles', { method: 'POST', body: { name: 'by-bob' }, headers: { Authorization: bob } });
});
afterAll(() => t.close());

type LogEntry = { id: string; key: string; payload: { after?: { name?: string } } };

describe('audit logs API', () => {
  it('filters by user and by key, newest first', async () => {
    const alice = await t.call('/api/logs?userId=alice');
    expect(alice.headers.get('Total-Number')).toBe('1');
    expect((alice.json as LogEntry[])[0]?.payload.after?.name).toBe('by-alice');
    const created = await t.call('/api/logs?logKey=Admin.Role.Created');
    expect((created.json as LogEntry[]).map((log) => log.payload.after?.name)).toEqual(['by-bob', 'by-alice']);
    expect((await t.call('/api/logs?logKey=Admin.Role.Deleted')).json).toEqual([]);
  });

  it('filters by a time window and rejects an empty one', async () => {
    const inWindow = await t.call(`/api/logs?userId=bob&start_time=${startedAt}&end_time=${Date.now() + 1000}`);
    expect(inWindow.json).toHaveLength(1);
    const before = await t.call(`/api/logs?userId=bob&end_time=${startedAt}`);
    expect(before.json).toEqual([]);
    const inverted = await t.call(`/api/logs?start_time=${Date.now()}&end_time=${startedAt}`);
    expect(inverted.status).toBe(400);
    expect(inverted.json.code).toBe('guard.invalid_input');
    expect((await t.call('/api/logs?start_time=yesterday')).status).toBe(400);
  });

  it('filters by result', async () => {
    await t.db.execute(sql`
      insert into logs (tenant_id, id, key, user_id, payload)
      values ('default', 'failed-sign-in', 'Interaction.SignIn.Submit', 'carol', '{"result":"Error"}'::jsonb),
             ('default', 'good-sign-in', 'Interaction.SignIn.Submit', 'carol', '{"result":"Success"}'::jsonb)`);
    const errors = await t.call('/api/logs?userId=carol&result=Error');
    expect((errors.json as LogEntry[]).map((log) => log.id)).toEqual(['failed-sign-in']);
    const successes = await t.call('/api/logs?userId=carol&result=Success');
    expect((successes.json as LogEntry[]).map((log) => log.id)).toEqual(['good-sign-in']);
    expect((await t.call('/api/logs?result=Maybe')).status).toBe(400);
  });

  it('returns one entry by id and 404 for an unknown id', async () => {
    const [first] = (await t.call('/api/logs?userId=alice')).json as LogEntry[];
    const one = await t.call(`/api/logs/${first?.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(first);
    expect((await t.call('/api/logs/unknown')).json.code).toBe('entity.not_exists_with_id');
  });

  it('counts up to the cap and says when it stopped, while later pages still load', async () => {
    // One set-based insert: more entries for one user than the cap, plus one for a user below it.
    await t.db.execute(sql`
      insert into logs (tenant_id, id, key, user_id, payload)
      select 'default', 'bulk-' || n, 'Interaction.SignIn.Submit', 'bulk_user', '{}'::jsonb
      from generate_series(1, ${LOG_COUNT_CAP + 5}) as n`);
    const capped = await t.call('/api/logs?userId=bulk_user&page_size=100');
    expect(capped.headers.get('Total-Number')).toBe(String(LOG_COUNT_CAP));
    expect(capped.headers.get('Total-Number-Is-Capped')).toBe('true');
    const beyond = await t.call(`/api/logs?userId=bulk_user&page_size=100&page=${LOG_COUNT_CAP / 100 + 1}`);
    expect(beyond.status).toBe(200);
    expect(beyond.json, 'the rows past the cap are still reachable').toHaveLength(5);

    const exact = await t.call('/api/logs?userId=alice');
    expect(exact.headers.get('Total-Number')).toBe('1');
    expect(exact.headers.get('Total-Number-Is-Capped'), 'below the cap the total is exact').toBeNull();
  });

  it('requires a token', async () => {
    expect((await t.call('/api/logs', { auth: false })).status).toBe(401);
  });
});
