import { generateId } from '@gatehouse/schemas';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs, users } from '../src/db/tables.ts';
import { EXPORT_PAGE_SIZE } from '../src/routes/exports.ts';
import { UserImportWorker } from '../src/services/user-import-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

let t: TestApp;
/** More than one keyset page of matching users, so the export must walk pages. */
const MATCHING = EXPORT_PAGE_SIZE + 37;
beforeAll(async () => {
  t = await createTestApp();
  const base = Date.now() - 1_000_000;
  await ownTenant(t).insertMany(
    users,
    Array.from({ length: MATCHING + 10 }, (_, index) => ({
      id: generateId(12),
      username: index < MATCHING ? `export_${index}` : `other_${index}`,
      primaryEmail: index === 0 ? 'first@example.com' : null,
      passwordEncrypted: `secret-hash-${index}`,
      passwordEncryptionMethod: 'SHA256',
      customData: index === 0 ? { plan: 'pro, "annual"' } : {},
      // Some share a creation time, so ties are broken by id across page boundaries.
      createdAt: new Date(base + Math.floor(index / 3) * 1000),
    })),
  );
  await otherTenant(t).insert(users, { id: generateId(12), username: 'export_elsewhere' });
  await ownTenant(t).insertMany(
    logs,
    Array.from({ length: MATCHING }, (_, index) => ({
      id: generateId(),
      key: index % 2 ? 'Admin.User.Created' : 'Admin.Role.Created',
      payload: { result: 'Success', entity: { type: 'User', id: `u${index}` } },
      createdAt: new Date(base + index),
    })),
  );
});
afterAll(() => t.close());

describe('exports', () => {
  it('exports every user the search matches as CSV, across pages, without password hashes', async () => {
    const response = await t.call('/api/users/export?format=csv&search=export%5C_%25');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(response.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(MATCHING);
    expect(new Set(rows.map((row) => row.id)).size, 'no row twice at page boundaries').toBe(MATCHING);
    expect(rows.every((row) => row.username?.startsWith('export_'))).toBe(true);
    expect(response.text).not.toContain('secret-hash');
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'username',
      'primaryEmail',
      'primaryPhone',
      'name',
      'avatar',
      'customData',
      'profile',
      'isSuspended',
      'hasPassword',
      'lastSignInAt',
      'createdAt',
      'updatedAt',
    ]);
    const first = rows.find((row) => row.username === 'export_0');
    expect(first).toMatchObject({ primaryEmail: 'first@example.com', hasPassword: 'true' });
    expect(JSON.parse(first?.customData ?? ''), 'quotes and commas survive').toEqual({ plan: 'pro, "annual"' });
    const times = rows.map((row) => Date.parse(row.createdAt ?? ''));
    expect(times, 'newest first').toEqual([...times].sort((a, b) => b - a));
  });

  it('users created in one statement (one timestamp, to the microsecond) are all exported across a page boundary', async () => {
    await ownTenant(t).insertMany(
      users,
      Array.from({ length: EXPORT_PAGE_SIZE + 5 }, (_, index) => ({ id: generateId(12), username: `batch_${index}` })),
    );
    const response = await t.call('/api/users/export?format=json&search=batch%5C_%25');
    const ids = (response.json as { id: string }[]).map((user) => user.id);
    expect(ids).toHaveLength(EXPORT_PAGE_SIZE + 5);
    expect(new Set(ids).size).toBe(EXPORT_PAGE_SIZE + 5);
  });

  it('writes a formula-like cell so a spreadsheet shows it as text, and such an export imports back unchanged', async () => {
    const formula = '=HYPERLINK("https://evil.example/","Click")';
    const names = [formula, '+1+1', '-2+3', '@SUM(A1)', '\t=1'];
    // Inserted directly: the audit-log export below counts the log, which the users API would write to.
    await ownTenant(t).insertMany(
      users,
      names.map((name, index) => ({ id: generateId(12), username: `formula_${index}`, name })),
    );
    const csv = await t.call('/api/users/export?format=csv&search=formula%5C_%25');
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    const exported = new Map(rows.map((row) => [row.username, row.name]));
    for (const [index, name] of names.entries()) expect(exported.get(`formula_${index}`)).toBe(`'${name}`);
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);

    const imported = await t.call('/api/users/imports', { method: 'POST', body: { format: 'csv', source: csv.text } });
    expect(imported.status).toBe(202);
    await new UserImportWorker({ db: t.db }).drain();
    const job = (await t.call(`/api/users/imports/${imported.json.id}`)).json;
    expect(job, 'the names come back as they were, so nothing changes').toMatchObject({
      status: 'succeeded',
      unchanged: names.length,
      failed: 0,
    });
  });

  it('exports JSON in the API shape of a user', async () => {
    const response = await t.call('/api/users/export?format=json&search.username=export%5C_%25&page=3&page_size=1');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toMatch(/filename="users-.*\.json"/);
    const items = response.json as Record<string, unknown>[];
    expect(items, 'page and page_size do not limit an export').toHaveLength(MATCHING);
    expect(items[0]).toHaveProperty('hasPassword', true);
    expect(items[0]).not.toHaveProperty('passwordEncrypted');
    expect(response.text).not.toContain('secret-hash');
  });

  it('an export matching nothing is a header (CSV) or an empty array (JSON)', async () => {
    const csv = await t.call('/api/users/export?search=nobody_matches_this');
    expect(csv.text.trim()).toBe(
      'id,username,primaryEmail,primaryPhone,name,avatar,customData,profile,isSuspended,hasPassword,lastSignInAt,createdAt,updatedAt',
    );
    expect((await t.call('/api/users/export?format=json&search=nobody_matches_this')).json).toEqual([]);
  });

  it('exports the audit log with its filters across pages', async () => {
    const all = await t.call('/api/logs/export?format=json&logKey=Admin.User.Created');
    expect(all.status).toBe(200);
    expect(all.json).toHaveLength(Math.floor(MATCHING / 2));
    expect(all.json.every((log: { key: string }) => log.key === 'Admin.User.Created')).toBe(true);
    const csv = await t.call('/api/logs/export?format=csv');
    expect(csv.headers.get('Content-Disposition')).toMatch(/filename="audit-logs-.*\.csv"/);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThanOrEqual(MATCHING);
    expect(rows[0]).toHaveProperty('entityType');
  });

  it('rejects invalid filters with 400 and is guarded', async () => {
    expectInvalid(await t.call('/api/users/export?format=xml'), 'format');
    expectInvalid(await t.call('/api/users/export?search.nope=x'), 'search.nope');
    expectInvalid(await t.call('/api/logs/export?start_time=20&end_time=10'), 'start_time');
    await expectGuarded(t, [
      { method: 'GET', path: '/api/users/export' },
      { method: 'GET', path: '/api/logs/export' },
    ]);
  });

  it("never exports another tenant's users", async () => {
    const response = await t.call('/api/users/export?format=json&search=export_elsewhere');
    expect(response.json).toEqual([]);
  });
});
