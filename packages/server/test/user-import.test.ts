import { createHash } from 'node:crypto';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { logs, userImportJobs, users } from '../src/db/tables.ts';
import { attemptSignIn } from '../src/services/sign-in.ts';
import { UserImportWorker } from '../src/services/user-import-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import {
  auditEntries,
  expectGuarded,
  expectInvalid,
  otherTenant,
  ownTenant,
  queuedEvents,
} from './support/scenarios.ts';

let t: TestApp;
let worker: UserImportWorker;
beforeAll(async () => {
  t = await createTestApp();
  worker = new UserImportWorker({ db: t.db, batchSize: 3 });
});
afterAll(() => t.close());

const sha256 = (input: string) => createHash('sha256').update(input).digest('hex');

/** Queues an import, runs the worker, and answers the finished job. */
async function runImport(body: Record<string, unknown>) {
  const queued = await t.call('/api/users/imports', { method: 'POST', body });
  expect(queued.status, JSON.stringify(queued.json)).toBe(202);
  expect(queued.json).toMatchObject({ status: 'pending', processed: 0 });
  await worker.drain();
  const job = await t.call(`/api/users/imports/${queued.json.id}`);
  expect(job.status).toBe(200);
  return job.json;
}

const userNamed = (username: string) => ownTenant(t).findOne(users, sql`lower(${users.username}) = ${username}`);
const userCount = () => ownTenant(t).count(users);

describe('user import', () => {
  let prefix = 0;
  const unique = () => `u${++prefix}_${Date.now().toString(36)}`;
  let p: string;
  beforeEach(() => {
    p = unique();
  });

  it('imports a CSV; a bad row is reported with its line and field and the others are saved', async () => {
    const csv = [
      'username,primaryEmail,name,customData',
      `${p}_alice,${p}_alice@example.com,Alice,"{""plan"":""pro""}"`,
      `${p}_bob,not-an-email,Bob,`,
      `${p}_carol,,"Carol, C.",`,
    ].join('\n');
    const job = await runImport({ format: 'csv', source: csv });
    expect(job).toMatchObject({ status: 'succeeded', total: 3, processed: 3, created: 2, updated: 0, failed: 1 });
    expect(job.errors).toEqual([
      expect.objectContaining({ line: 3, field: 'primaryEmail', code: 'guard.invalid_input' }),
    ]);
    expect(job.finishedAt).toEqual(expect.any(Number));
    const alice = await userNamed(`${p}_alice`);
    expect(alice).toMatchObject({ primaryEmail: `${p}_alice@example.com`, name: 'Alice', customData: { plan: 'pro' } });
    expect((await userNamed(`${p}_carol`))?.name).toBe('Carol, C.');
    expect(await userNamed(`${p}_bob`), 'the bad row is not saved').toBeUndefined();

    const audit = await auditEntries(t, alice?.id ?? '');
    expect(audit, 'one audit entry per created user').toHaveLength(1);
    expect(audit[0]).toMatchObject({
      key: 'Admin.User.Created',
      payload: { actor: { type: 'user', id: 'test-admin' } },
    });
    expect(JSON.stringify(audit[0]?.payload)).not.toContain('password');
    const created = await queuedEvents(t, 'User.Created');
    expect(created.some((user) => user.id === alice?.id)).toBe(true);
  });

  it('a malformed CSV record is reported with its line and the rest proceeds', async () => {
    const csv = [
      'username,name',
      `${p}_one,One`,
      `${p}_two,Two,extra cell`,
      `${p}_three,"Three`,
      'lines"',
      `${p}_four,Four`,
    ].join('\n');
    const job = await runImport({ format: 'csv', source: csv });
    expect(job.errors).toEqual([expect.objectContaining({ line: 3, code: 'import.malformed_row' })]);
    expect(job).toMatchObject({ total: 4, created: 3, failed: 1 });
    expect((await userNamed(`${p}_three`))?.name, 'a quoted value may span lines').toBe('Three\nlines');
  });

  it('imports JSON with a column mapping; JSON rows are numbered from 1', async () => {
    const source = JSON.stringify([
      { login: `${p}_dan`, mail: `${p}_dan@example.com`, fullName: 'Dan', ignored: 'x' },
      { login: `${p} bad`, mail: `${p}_eve@example.com` },
      'not an object',
    ]);
    const job = await runImport({
      format: 'json',
      source,
      mapping: { login: 'username', mail: 'primaryEmail', fullName: 'name' },
    });
    expect(job).toMatchObject({ status: 'succeeded', total: 3, created: 1, failed: 2 });
    expect(job.errors.map((error: { line: number; field: string }) => [error.line, error.field])).toEqual([
      [2, 'username'],
      [3, ''],
    ]);
    expect(await userNamed(`${p}_dan`)).toMatchObject({ name: 'Dan', primaryEmail: `${p}_dan@example.com` });
  });

  it('accepts a multipart upload: the file, its format from the name, the mapping as JSON text', async () => {
    const form = new FormData();
    form.append('file', new File([`login,full\n${p}_up,Uploaded\n`], 'people.csv', { type: 'text/csv' }));
    form.append('mapping', JSON.stringify({ login: 'username', full: 'name' }));
    const response = await t.app.request('/api/users/imports', {
      method: 'POST',
      headers: { Authorization: `Bearer ${await t.token()}` },
      body: form,
    });
    expect(response.status).toBe(202);
    const queued = (await response.json()) as { id: string; format: string; dryRun: boolean };
    expect(queued).toMatchObject({ format: 'csv', dryRun: false });
    await worker.drain();
    expect((await t.call(`/api/users/imports/${queued.id}`)).json).toMatchObject({ status: 'succeeded', created: 1 });
    expect((await userNamed(`${p}_up`))?.name).toBe('Uploaded');

    const unnamed = new FormData();
    unnamed.append('file', new File(['x'], 'people.txt'));
    const rejected = await t.app.request('/api/users/imports', {
      method: 'POST',
      headers: { Authorization: `Bearer ${await t.token()}` },
      body: unnamed,
    });
    expect(rejected.status, 'no format given or derivable').toBe(400);
    expect(((await rejected.json()) as { data: { path: string }[] }).data.map((field) => field.path)).toContain(
      'format',
    );
  });

  it('a dry run reports the same errors and writes nothing', async () => {
    const before = await userCount();
    const logsBefore = await ownTenant(t).count(logs);
    const csv = `username,primaryEmail\n${p}_x,${p}_x@example.com\n,\n${p}_y,bad\n`;
    const job = await runImport({ format: 'csv', source: csv, dryRun: true });
    expect(job).toMatchObject({ status: 'succeeded', dryRun: true, total: 3, created: 1, failed: 2 });
    expect(job.errors.map((error: { line: number }) => error.line)).toEqual([3, 4]);
    expect(job.errors[0].message).toBe('A user needs a username, an email address or a phone number.');
    expect(await userCount(), 'no user written').toBe(before);
    expect(await ownTenant(t).count(logs), 'no audit entry written').toBe(logsBefore);
  });

  it('upserts by username, then email; running the same file again changes nothing', async () => {
    const existing = await t.call('/api/users', {
      method: 'POST',
      body: { primaryEmail: `${p}_frank@example.com`, name: 'Old' },
    });
    const csv = [
      'username,primaryEmail,name',
      `${p}_frank,${p}_frank@example.com,Frank`,
      `${p}_gina,${p}_gina@example.com,Gina`,
    ].join('\n');
    const first = await runImport({ format: 'csv', source: csv });
    expect(first).toMatchObject({ created: 1, updated: 1, unchanged: 0, failed: 0 });
    const frank = await ownTenant(t).findOne(users, eq(users.id, existing.json.id));
    expect(frank, 'matched by email, gains the username').toMatchObject({ username: `${p}_frank`, name: 'Frank' });
    const [update] = await auditEntries(t, existing.json.id);
    expect(update).toMatchObject({ key: 'Admin.User.Updated' });
    expect(((update?.payload.changes ?? []) as { field: string }[]).map((change) => change.field).sort()).toEqual([
      'name',
      'username',
    ]);

    const logsBefore = await ownTenant(t).count(logs);
    const again = await runImport({ format: 'csv', source: csv });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: 0 });
    expect(await ownTenant(t).count(logs), 'an unchanged user is not audited again').toBe(logsBefore);
  });

  it('batches in flight together end as if run one after the other', async () => {
    // One existing user, changed by the first batch (a new email) and found again by the second through the email
    // the first batch frees. One batch after the other, the second batch's row is a new user with that email.
    const existing = await t.call('/api/users', {
      method: 'POST',
      body: { username: `${p}_kate`, primaryEmail: `${p}_old@example.com` },
    });
    expect(existing.status).toBe(200);
    const csv = [
      'username,primaryEmail',
      `${p}_kate,${p}_new@example.com`,
      `${p}_f1,`,
      `${p}_f2,`,
      `${p}_leo,${p}_old@example.com`,
      `${p}_f3,`,
      `${p}_f4,`,
    ].join('\n');
    const job = await runImport({ format: 'csv', source: csv });
    expect(job).toMatchObject({ status: 'succeeded', created: 5, updated: 1, failed: 0 });
    expect(await ownTenant(t).findOne(users, eq(users.id, existing.json.id))).toMatchObject({
      username: `${p}_kate`,
      primaryEmail: `${p}_new@example.com`,
    });
    expect(await userNamed(`${p}_leo`)).toMatchObject({ primaryEmail: `${p}_old@example.com` });
  });

  it('after a crash, a later batch written before an earlier one is run again and finds its users unchanged', async () => {
    // As if a process died with the second batch written and the first not: the job's progress still at 0.
    const rows = Array.from({ length: 6 }, (_, index) => `${p}_c${index},Name ${index}`);
    const secondBatch = await runImport({ format: 'csv', source: ['username,name', ...rows.slice(3)].join('\n') });
    expect(secondBatch).toMatchObject({ created: 3 });
    const logsBefore = await ownTenant(t).count(logs);
    const job = await runImport({ format: 'csv', source: ['username,name', ...rows].join('\n') });
    expect(job).toMatchObject({ status: 'succeeded', processed: 6, created: 3, updated: 0, unchanged: 3, failed: 0 });
    expect(await ownTenant(t).count(logs), 'audited once each').toBe(logsBefore + 3);
  });

  it('reports duplicates within the file and identifiers owned by another user', async () => {
    await t.call('/api/users', { method: 'POST', body: { username: `${p}_owner`, primaryPhone: '5550100' } });
    const csv = [
      'username,primaryEmail,primaryPhone',
      `${p}_hank,${p}_hank@example.com,`,
      `${p.toUpperCase()}_HANK,,`,
      `${p}_ivy,,555-0100`,
    ].join('\n');
    const job = await runImport({ format: 'csv', source: csv });
    expect(job.errors).toEqual([
      expect.objectContaining({ line: 3, field: 'username', code: 'import.duplicate_in_file' }),
      expect.objectContaining({
        line: 4,
        field: 'primaryPhone',
        code: 'user.phone_already_in_use',
        message: 'This phone number is already in use.',
      }),
    ]);
    expect(job).toMatchObject({ created: 1, failed: 2 });
  });

  it('imported digests sign in; plaintext passwords are checked by the policy and stored as Argon2id', async () => {
    const password = 'Imported-Secret-2024';
    const csv = [
      'username,password,passwordDigest,passwordAlgorithm',
      `${p}_hashed,,${sha256(password)},SHA256`,
      `${p}_plain,${password},,`,
      `${p}_weak,123,,`,
      `${p}_wrongdigest,,xyz,SHA256`,
    ].join('\n');
    const job = await runImport({ format: 'csv', source: csv });
    expect(job.errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([
      [4, 'password.rejected'],
      [5, 'guard.invalid_input'],
    ]);
    // Before any sign-in upgrades the imported hash.
    const again = await runImport({ format: 'csv', source: csv.split('\n').slice(0, 3).join('\n') });
    expect(again, 'the same plaintext password is not a change').toMatchObject({ unchanged: 2, updated: 0 });
    const hashed = await userNamed(`${p}_hashed`);
    expect(hashed).toMatchObject({ passwordEncryptionMethod: 'SHA256', passwordEncrypted: sha256(password) });
    expect(await attemptSignIn(ownTenant(t), { identifier: `${p}_hashed`, password })).toMatchObject({
      ok: true,
      userId: hashed?.id,
    });
    const plain = await userNamed(`${p}_plain`);
    expect(plain?.passwordEncrypted).toMatch(/^\$argon2id\$/);
    expect(await attemptSignIn(ownTenant(t), { identifier: `${p}_plain`, password })).toMatchObject({
      ok: true,
      userId: plain?.id,
    });
  });

  it('a file that cannot be read fails the job with a message', async () => {
    const job = await runImport({ format: 'json', source: '{"username": "x"' });
    expect(job.status).toBe('failed');
    expect(job.errors).toEqual([expect.objectContaining({ line: 0, code: 'import.malformed_file' })]);
    const csv = await runImport({ format: 'json', source: '{"username": "x"}' });
    expect(csv.errors[0].message).toBe('A JSON import is an array of user objects.');
  });

  it('lists jobs newest first without their errors or file', async () => {
    await runImport({ format: 'csv', source: 'username\nbad name\n' });
    const list = await t.call('/api/users/imports?page_size=2');
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('Total-Number'))).toBeGreaterThan(2);
    expect(list.json).toHaveLength(2);
    expect(list.json[0]).toMatchObject({ status: 'succeeded', failed: 1 });
    expect(list.json[0].errors).toBeUndefined();
    expect(list.json[0].source).toBeUndefined();
    expect(list.json[0].createdAt).toBeGreaterThanOrEqual(list.json[1].createdAt);
  });

  it('rejects invalid requests with 400 and unknown jobs with 404', async () => {
    expectInvalid(
      await t.call('/api/users/imports', { method: 'POST', body: { format: 'xml', source: 'a' } }),
      'format',
    );
    expectInvalid(
      await t.call('/api/users/imports', { method: 'POST', body: { format: 'csv', source: '' } }),
      'source',
    );
    expectInvalid(
      await t.call('/api/users/imports', {
        method: 'POST',
        body: { format: 'csv', source: 'a', mapping: { a: 'isSuspended' } },
      }),
      'mapping.a',
    );
    expect((await t.call('/api/users/imports/nope')).status).toBe(404);
  });

  it('is guarded and keeps tenants apart', async () => {
    await expectGuarded(t, [
      { method: 'POST', path: '/api/users/imports', body: { format: 'csv', source: 'username\nx' } },
      { method: 'GET', path: '/api/users/imports' },
      { method: 'GET', path: '/api/users/imports/x' },
    ]);
    const other = await otherTenant(t).insert(userImportJobs, {
      id: `other${p}`.slice(0, 21),
      format: 'csv',
      source: 'x',
    });
    expect((await t.call(`/api/users/imports/${other.id}`)).status, "another tenant's job is not found").toBe(404);
    const list = await t.call('/api/users/imports?page_size=100');
    expect(list.json.map((job: { id: string }) => job.id)).not.toContain(other.id);
    await otherTenant(t).delete(userImportJobs, eq(userImportJobs.id, other.id));
    expect(DEFAULT_TENANT_ID).not.toBe(otherTenant(t).tenantId);
  });

  it('a stopping process hands its job back after the batches in hand, and another resumes it at once', async () => {
    const names = Array.from({ length: 30 }, (_, index) => `${p}_s${index}`);
    const queued = await t.call('/api/users/imports', {
      method: 'POST',
      body: { format: 'csv', source: `username\n${names.join('\n')}\n` },
    });
    // The process is told to stop while it writes its first batch: when a transaction first inserts users (through
    // drizzle's insert, or the one-statement bulk insert of db/bulk-insert.ts).
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      void stopping.stop();
    };
    const insertsUsers = (query: { queryChunks?: unknown[] }): boolean =>
      query.queryChunks?.[1] === users || (query.queryChunks ?? []).some((chunk) => insertsUsers(chunk as object));
    const watch = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(inner, property) {
          const value = Reflect.get(inner, property);
          if (property === 'insert') {
            return (table: unknown) => {
              if (table === users) tell();
              return (value as (table: unknown) => unknown).call(inner, table);
            };
          }
          if (property === 'execute') {
            return (query: { queryChunks?: unknown[] }) => {
              if (insertsUsers(query)) tell();
              return (value as (query: unknown) => unknown).call(inner, query);
            };
          }
          if (property === 'transaction') {
            return (work: (tx: object) => Promise<unknown>, ...rest: unknown[]) =>
              (value as (...args: unknown[]) => Promise<unknown>).call(inner, (tx: object) => work(watch(tx)), ...rest);
          }
          return typeof value === 'function' ? value.bind(inner) : value;
        },
      });
    const db = watch(t.db);
    const stopping = new UserImportWorker({ db, batchSize: 3 });
    expect(await stopping.runOnce(), 'the claim ran').toBe(1);
    await stopping.stop();
    const handedBack = await ownTenant(t).findOne(userImportJobs, eq(userImportJobs.id, queued.json.id));
    // Two batches are in flight when it is told (the second was started before the first wrote): both are written
    // and saved, in file order, and nothing after them.
    expect(handedBack, 'still running, free for the next claim').toMatchObject({
      status: 'running',
      processed: 6,
      created: 6,
      lockedUntil: null,
    });
    await worker.drain();
    const job = (await t.call(`/api/users/imports/${queued.json.id}`)).json;
    expect(job).toMatchObject({ status: 'succeeded', total: 30, processed: 30, created: 30, failed: 0 });
  });

  it('a job claimed by a process that died is resumed once its lease runs out', async () => {
    const queued = await t.call('/api/users/imports', {
      method: 'POST',
      body: { format: 'csv', source: `username\n${p}_r1\n${p}_r2\n${p}_r3\n${p}_r4\n` },
    });
    await ownTenant(t).update(userImportJobs, eq(userImportJobs.id, queued.json.id), {
      status: 'running',
      lockedUntil: new Date(Date.now() + 60_000),
    });
    await worker.drain();
    expect((await t.call(`/api/users/imports/${queued.json.id}`)).json.status, 'leased elsewhere: left alone').toBe(
      'running',
    );
    await ownTenant(t).update(userImportJobs, eq(userImportJobs.id, queued.json.id), {
      lockedUntil: new Date(Date.now() - 1000),
    });
    await worker.drain();
    const job = (await t.call(`/api/users/imports/${queued.json.id}`)).json;
    expect(job).toMatchObject({ status: 'succeeded', created: 4, processed: 4 });
  });
});
