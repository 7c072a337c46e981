import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, type Log } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { roles, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { LOG_COUNT_CAP, withNames } from '../src/services/logs.ts';
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

describe('names of what an entry refers to', () => {
  it('names the actor, user, application and entity from the tenant, beside the ids as recorded', async () => {
    const app = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'Back office', type: 'MachineToMachine' },
    });
    expect(app.status).toBe(200);
    const machine = `Bearer ${await t.token({ issuerTenantId: DEFAULT_TENANT_ID, clientId: app.json.id })}`;
    const user = await t.call('/api/users', {
      method: 'POST',
      body: { username: 'ada', name: 'Ada Lovelace' },
      headers: { Authorization: machine },
    });
    expect(user.status).toBe(200);

    const [created] = (
      await t.call(`/api/logs?applicationId=${app.json.id}&logKey=Admin.User.Created&includeNames=true`)
    ).json as Log[];
    expect(created?.payload.actor).toEqual({ type: 'application', id: app.json.id });
    expect(created?.payload.entity).toEqual({ type: 'User', id: user.json.id });
    expect(created?.names).toEqual({ actor: 'Back office', application: 'Back office', entity: 'Ada Lovelace' });
    expect(
      (await t.call(`/api/logs/${created?.id}?includeNames=true`)).json,
      'the entry answers the same names',
    ).toEqual(created);
    const [plain] = (await t.call(`/api/logs?applicationId=${app.json.id}&logKey=Admin.User.Created`)).json as Log[];
    expect(plain?.names, 'names only when asked (they cost a statement)').toBeUndefined();

    // A sign-in of that user to that application (no actor): the user and the application by name.
    await t.db.execute(sql`
      insert into logs (tenant_id, id, key, user_id, application_id, payload)
      values ('default', 'named-sign-in', 'Interaction.SignIn.Submit', ${user.json.id}, ${app.json.id},
              '{"result":"Success"}'::jsonb)`);
    const [signIn] = (
      await t.call(`/api/logs?userId=${user.json.id}&logKey=Interaction.SignIn.Submit&includeNames=true`)
    ).json as Log[];
    expect(signIn?.names).toEqual({ user: 'Ada Lovelace', application: 'Back office' });

    // A console admin is a user of the admin tenant: the role gets its name, the admin keeps only its id.
    const [byAlice] = (await t.call('/api/logs?userId=alice&includeNames=true')).json as Log[];
    expect(byAlice?.payload.actor).toEqual({ type: 'user', id: 'alice' });
    expect(byAlice?.names).toEqual({ entity: 'by-alice' });

    // Gone since: no name, the ids stay.
    expect((await t.call(`/api/users/${user.json.id}`, { method: 'DELETE' })).status).toBe(204);
    const again = (await t.call(`/api/logs/${created?.id}?includeNames=true`)).json as Log;
    expect(again.names).toEqual({ actor: 'Back office', application: 'Back office' });
  });

  it("never names another tenant's user, application or role", async () => {
    const admin = new TenantDb(t.db, ADMIN_TENANT_ID);
    await admin.insert(users, { id: 'admin-ada', username: 'admin_ada', name: 'Admin Ada' });
    await admin.insert(roles, { id: 'admin-role', name: 'Admin only' });
    await t.db.execute(sql`
      insert into logs (tenant_id, id, key, user_id, payload)
      values ('default', 'foreign-refs', 'Admin.Role.Updated', 'admin-ada',
              '{"result":"Success","actor":{"type":"user","id":"admin-ada"},"entity":{"type":"Role","id":"admin-role"},"applicationId":"admin-console"}'::jsonb),
             ('default', 'odd-refs', 'Admin.Role.Updated', null,
              '{"result":"Success","entity":{"type":"constructor","id":"x"},"actor":{"type":"system","id":"cli"}}'::jsonb)`);
    for (const id of ['foreign-refs', 'odd-refs']) {
      const entry = await t.call(`/api/logs/${id}?includeNames=true`);
      expect(entry.status).toBe(200);
      expect(entry.json.names, id).toBeUndefined();
    }
    const page = (await t.call('/api/logs?logKey=Admin.Role.Updated&page_size=100&includeNames=true')).json as Log[];
    expect(page.find((log) => log.id === 'foreign-refs')?.names).toBeUndefined();
  });

  it('reads the names of a whole page in one statement, and none for a page that refers to nothing named', async () => {
    class CountingTenantDb extends TenantDb {
      statements = 0;
      override asTenant<R>(work: (db: Database) => Promise<R>): Promise<R> {
        this.statements += 1;
        return super.asTenant(work);
      }
    }
    const tenant = new CountingTenantDb(t.db, DEFAULT_TENANT_ID);
    const page = (await t.call('/api/logs?page_size=100&includeNames=true')).json as Log[];
    const bare = page.map(({ names: _names, ...log }) => log);
    expect(bare.length).toBeGreaterThan(5);
    const named = await withNames(tenant, bare);
    expect(tenant.statements).toBe(1);
    expect(named).toEqual(page);
    await withNames(tenant, [{ id: 'x', key: 'Interaction.Create', createdAt: 0, payload: { result: 'Success' } }]);
    expect(tenant.statements, 'no statement without a reference').toBe(1);
  });
});
