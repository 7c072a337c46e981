import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

// Issue 43: the reference's search syntax as its clients send it. Mode `like` (the default) is SQL LIKE with the value
// as the pattern (the reference maps it to `~~*`, `~~` when case-sensitive): a value without `%` matches the whole
// field in any case, `%kw%` (what the reference's console sends) anywhere. The keyword `q` of the organization routes
// is wrapped by the server (`ilike '%q%'`) and stays a substring.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const q = (value: string) => encodeURIComponent(value);

/** The rows a list answers (200), mapped by `pick`. */
async function list<T>(path: string, pick: (row: Record<string, string>) => T): Promise<T[]> {
  const response = await t.call(path);
  expect(response.status, `${path} ${response.text}`).toBe(200);
  return (response.json as Record<string, string>[]).map(pick);
}

async function post(path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await t.call(path, { method: 'POST', body });
  expect(response.status, `${path} ${response.text}`).toBeLessThan(300);
  return response.json as { id: string };
}

describe('GET /users: search without % matches the whole value', () => {
  let ali: string;
  let malice: string;
  let underscore: string;
  let phone: string;
  beforeAll(async () => {
    ali = (await post('/api/users', { username: 'srch_ali', name: 'Ali Search' })).id;
    malice = (await post('/api/users', { username: 'srch_malice', name: 'Malice Search' })).id;
    underscore = (await post('/api/users', { username: 'srch_u_x', primaryEmail: 'Srch.Mail@Example.com' })).id;
    phone = (await post('/api/users', { username: 'srch_phone', primaryPhone: '15550001234' })).id;
  });
  const ids = async (query: string) => (await list(`/api/users?${query}&page_size=100`, (user) => user.id)).sort();

  it('search=<value>: the whole value of a field, any case', async () => {
    expect(await ids(`search=${q('srch_ali')}`)).toEqual([ali]);
    expect(await ids(`search=${q('SRCH_ALI')}`)).toEqual([ali]);
    expect(await ids(`search=${q('ali search')}`), 'a whole name').toEqual([ali]);
    expect(await ids(`search=${q('ali')}`), 'not a part of a value').toEqual([]);
    expect(await ids(`search=${q('srch.mail@example.com')}`)).toEqual([underscore]);
    expect(await ids(`search=${q('15550001234')}`)).toEqual([phone]);
  });

  it('search=%<value>%: anywhere (the console), and % elsewhere as placed', async () => {
    expect(await ids(`search=${q('%ali%')}`)).toEqual([ali, malice].sort());
    expect(await ids(`search=${q('%ALICE search%')}`)).toEqual([malice]);
    expect(await ids(`search=${q('srch\\_m%')}`), 'a prefix').toEqual([malice]);
    expect(await ids(`search=${q('srch_m%')}`), '`_` also matches the `.` of an email').toEqual(
      [malice, underscore].sort(),
    );
    expect(await ids(`search=${q('%5550001%')}`)).toEqual([phone]);
  });

  it('`_` is any one character; `\\` escapes it', async () => {
    expect(await ids(`search.username=${q('srch_u_x')}`)).toEqual([underscore]);
    expect(await ids(`search.username=${q('srch_u__')}`)).toEqual([underscore]);
    expect(await ids(`search.username=${q('srch\\_u\\_x')}`)).toEqual([underscore]);
    expect(await ids(`search.username=${q('%h\\_u\\_%')}`)).toEqual([underscore]);
    expect(await ids(`search.username=${q('srch\\_u\\_')}`), 'escaped: no wildcard left').toEqual([]);
  });

  it('search.<field> and isCaseSensitive read the value the same way', async () => {
    expect(await ids(`search.name=${q('malice search')}`)).toEqual([malice]);
    expect(await ids(`search.name=${q('malice search')}&isCaseSensitive=true`)).toEqual([]);
    expect(await ids(`search.name=${q('Malice Search')}&isCaseSensitive=true`)).toEqual([malice]);
    expect(await ids(`search.name=${q('Search')}`), 'not a part').toEqual([]);
    expect(await ids(`search.name=${q('%Search')}&isCaseSensitive=true`)).toEqual([ali, malice].sort());
  });

  it('a value ending in a lone backslash is a search, not an error', async () => {
    const response = await t.call(`/api/users?search=${q('srch\\')}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
  });

  it('GET /roles/{id}/users reads search the same way', async () => {
    const role = await post('/api/roles', { name: 'srch-role-holders', description: 'holders' });
    const assigned = await t.call(`/api/roles/${role.id}/users`, { method: 'POST', body: { userIds: [ali, malice] } });
    expect(assigned.status).toBe(201);
    const holders = async (query: string) =>
      (await list(`/api/roles/${role.id}/users?${query}`, (user) => user.id)).sort();
    expect(await holders(`search=${q('srch_malice')}`)).toEqual([malice]);
    expect(await holders(`search=${q('malice')}`)).toEqual([]);
    expect(await holders(`search=${q('%ali%')}`)).toEqual([ali, malice].sort());
  });
});

describe('roles, applications and permissions: the same search syntax', () => {
  it('GET /roles', async () => {
    const reader = await post('/api/roles', { name: 'srch-reader', description: 'Reads reports' });
    const admin = await post('/api/roles', { name: 'srch-reader-admin', description: 'Administers' });
    const names = async (query: string) => (await list(`/api/roles?${query}`, (role) => role.id)).sort();
    expect(await names(`search=${q('SRCH-READER')}`)).toEqual([reader.id]);
    expect(await names(`search=${q('%srch-reader%')}`)).toEqual([reader.id, admin.id].sort());
    expect(await names(`search=${q('reads reports')}`), 'the whole description').toEqual([reader.id]);
    expect(await names(`search=${q('reads')}`)).toEqual([]);
    expect(await names(`search.name=${q('srch-reader')}&mode.name=exact`)).toEqual([reader.id]);
  });

  it('GET /applications', async () => {
    const app = await post('/api/applications', { name: 'Srch Portal', type: 'SPA' });
    const ids = async (query: string) => list(`/api/applications?${query}`, (row) => row.id);
    expect(await ids(`search=${q('srch portal')}`)).toEqual([app.id]);
    expect(await ids(`search=${q('portal')}`)).toEqual([]);
    expect(await ids(`search=${q('%portal%')}`)).toEqual([app.id]);
  });

  it('GET /resources/{id}/scopes', async () => {
    const resource = await post('/api/resources', { name: 'Srch API', indicator: 'https://srch.example.com' });
    await post(`/api/resources/${resource.id}/scopes`, { name: 'read:srch', description: 'Read' });
    await post(`/api/resources/${resource.id}/scopes`, { name: 'write:srch', description: 'Write' });
    const names = async (query: string) =>
      (await list(`/api/resources/${resource.id}/scopes?${query}`, (scope) => scope.name)).sort();
    expect(await names(`search=${q('READ:SRCH')}`)).toEqual(['read:srch']);
    expect(await names(`search=${q('srch')}`)).toEqual([]);
    expect(await names(`search=${q('%srch%')}`)).toEqual(['read:srch', 'write:srch']);
    expect(await names(`search=${q('%:srch')}`)).toEqual(['read:srch', 'write:srch']);
  });
});

describe('the keyword q of the organization routes stays a substring (the reference wraps it)', () => {
  it('GET /organizations?q=, GET /organization-roles?q=', async () => {
    const acme = await post('/api/organizations', { name: 'Srch Acme_Corp' });
    const ids = async (query: string) => list(`/api/organizations?${query}`, (row) => row.id);
    expect(await ids(`q=${q('acme')}`)).toEqual([acme.id]);
    expect(await ids(`q=${q('%acme%')}`), 'the console sends %kw% for some: the same matches').toEqual([acme.id]);
    expect(await ids(`q=${q('acme_c')}`), '`_` is a wildcard inside the wrapped keyword').toEqual([acme.id]);
    expect(await ids(`q=${q('srch acme')}`)).toEqual([acme.id]);
    expect((await t.call(`/api/organizations?q=${q('acme\\')}`)).status).toBe(200);

    await post('/api/organization-roles', { name: 'srch-org-viewer' });
    const roles = await t.call(`/api/organization-roles?q=${q('org-view')}`);
    expect((roles.json as { name: string }[]).map((role) => role.name)).toEqual(['srch-org-viewer']);
  });
});
