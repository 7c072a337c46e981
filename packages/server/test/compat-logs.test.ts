import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: audit logs as a client written for the reference management API reads them (section 10 of the
 * reference): `GET /logs` with the console's query (`page, page_size, enableCap=true, logKey, applicationId, userId,
 * start_time, end_time`) and `GET /logs/{id}`.
 */

let t: TestApp;
// Fixed instants (epoch ms) far in the past, so that entries the test app writes itself never fall between them.
const T0 = Date.UTC(2024, 0, 1);
const at = (seconds: number) => T0 + seconds * 1000;

beforeAll(async () => {
  t = await createTestApp();
  const rows = [
    ['compat-log-1', 'Interaction.SignIn.Submit', 'user-a', 'app-x', 'Success', 0],
    ['compat-log-2', 'Interaction.SignIn.Submit', 'user-b', 'app-x', 'Error', 10],
    ['compat-log-3', 'Interaction.Create', 'user-a', 'app-y', 'Success', 20],
    ['compat-log-4', 'Interaction.SignIn.Submit', 'user-a', null, 'Success', 30],
  ] as const;
  for (const [id, key, userId, applicationId, result, seconds] of rows) {
    const payload = JSON.stringify({
      result,
      userId,
      ...(applicationId ? { applicationId } : {}),
      ip: '203.0.113.7',
      userAgent: 'compat-agent',
      ...(result === 'Error' ? { error: { message: 'Wrong password' } } : {}),
    });
    await t.db.execute(sql`insert into logs (tenant_id, id, key, user_id, application_id, payload, created_at)
      values ('default', ${id}, ${key}, ${userId}, ${applicationId}, ${payload}::jsonb,
              to_timestamp(${at(seconds)}::double precision / 1000))`);
  }
});
afterAll(() => t.close());

const window = `start_time=${at(0)}&end_time=${at(60)}`;
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe('GET /logs', () => {
  it('answers Log {id, key, payload {result, userId, applicationId, ip, userAgent, error}, createdAt}', async () => {
    const response = await t.call(`/api/logs?${window}&userId=user-b`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      {
        id: 'compat-log-2',
        key: 'Interaction.SignIn.Submit',
        payload: {
          result: 'Error',
          userId: 'user-b',
          applicationId: 'app-x',
          ip: '203.0.113.7',
          userAgent: 'compat-agent',
          error: { message: 'Wrong password' },
        },
        createdAt: at(10),
      },
    ]);
  });

  it('lists newest first, paginated by default with Total-Number and Link', async () => {
    const whole = await t.call(`/api/logs?${window}`);
    expect(whole.status).toBe(200);
    expect(ids(whole.json)).toEqual(['compat-log-4', 'compat-log-3', 'compat-log-2', 'compat-log-1']);
    expect(whole.headers.get('Total-Number')).toBe('4');
    const page = await t.call(`/api/logs?${window}&page=2&page_size=3`);
    expect(ids(page.json)).toEqual(['compat-log-1']);
    expect(page.headers.get('Total-Number')).toBe('4');
    expect(page.headers.get('Link')).toMatch(/rel="prev"/);
    expect(page.headers.get('Link')).toMatch(/rel="first"/);
  });

  it('takes the console’s exact query, enableCap=true included, and leaves Total-Number-Is-Capped out below the cap', async () => {
    const response = await t.call(
      `/api/logs?page=1&page_size=20&enableCap=true&logKey=Interaction.SignIn.Submit&applicationId=app-x&userId=user-a&${window}`,
    );
    expect(response.status).toBe(200);
    expect(ids(response.json)).toEqual(['compat-log-1']);
    expect(response.headers.get('Total-Number')).toBe('1');
    expect(response.headers.get('Total-Number-Is-Capped')).toBeNull();
  });

  it('filters by userId, applicationId and logKey (exact)', async () => {
    expect(ids((await t.call(`/api/logs?${window}&userId=user-a`)).json)).toEqual([
      'compat-log-4',
      'compat-log-3',
      'compat-log-1',
    ]);
    expect(ids((await t.call(`/api/logs?${window}&applicationId=app-x`)).json)).toEqual([
      'compat-log-2',
      'compat-log-1',
    ]);
    expect(ids((await t.call(`/api/logs?${window}&logKey=Interaction.Create`)).json)).toEqual(['compat-log-3']);
    expect((await t.call(`/api/logs?${window}&logKey=Interaction`)).json, 'logKey is not a prefix match').toEqual([]);
  });

  it('takes start_time and end_time in epoch milliseconds, start inclusive and end exclusive', async () => {
    const response = await t.call(`/api/logs?start_time=${at(10)}&end_time=${at(30)}`);
    expect(ids(response.json)).toEqual(['compat-log-3', 'compat-log-2']);
    expect(response.headers.get('Total-Number')).toBe('2');
  });

  it('answers 400 on a bad window and 400 guard.invalid_pagination on bad page parameters', async () => {
    for (const query of [`start_time=${at(30)}&end_time=${at(10)}`, 'start_time=yesterday', 'end_time=-1']) {
      const response = await t.call(`/api/logs?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('guard.invalid_input');
    }
    for (const query of ['page=0', 'page_size=101']) {
      const response = await t.call(`/api/logs?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('guard.invalid_pagination');
    }
  });
});

describe('GET /logs/{id}', () => {
  it('answers the entry as the list shows it, and 404 entity.not_exists_with_id for an unknown id', async () => {
    const listed = (await t.call(`/api/logs?${window}&logKey=Interaction.Create`)).json[0];
    const one = await t.call('/api/logs/compat-log-3');
    expect(one.status).toBe(200);
    expect(one.json).toEqual(listed);
    const unknown = await t.call('/api/logs/no-such-log');
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('entity.not_exists_with_id');
  });
});
