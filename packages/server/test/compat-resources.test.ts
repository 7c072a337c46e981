import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededIds } from '../src/db/seed.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: API resources and their scopes (permissions) as a client written for the reference management API sends
 * and reads them (section 2 of the reference).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
async function newResource(body: Record<string, unknown> = {}) {
  const response = await t.call('/api/resources', {
    method: 'POST',
    body: { name: unique('Compat API'), indicator: `https://${unique('compat-api')}.example.com`, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.json as Record<string, unknown> & { id: string; indicator: string };
}

describe('POST /resources and GET/PATCH/DELETE /resources/{id}', () => {
  it('creates from {name, indicator} with 201, accessTokenTtl 3600 by default and an empty scopes list', async () => {
    const indicator = `https://${unique('created')}.example.com`;
    const response = await t.call('/api/resources', { method: 'POST', body: { name: 'Created API', indicator } });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      name: 'Created API',
      indicator,
      isDefault: false,
      accessTokenTtl: 3600,
      scopes: [],
    });
    expect(typeof response.json.id).toBe('string');
    const custom = await newResource({ accessTokenTtl: 7200 });
    expect(custom.accessTokenTtl).toBe(7200);
  });

  it('refuses an indicator in use with 422 resource.resource_identifier_in_use', async () => {
    const resource = await newResource();
    const again = await t.call('/api/resources', {
      method: 'POST',
      body: { name: 'Same indicator', indicator: resource.indicator },
    });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('resource.resource_identifier_in_use');
  });

  it('gets with 200, patches name and accessTokenTtl with 200, deletes with 204 then 404', async () => {
    const resource = await newResource();
    const got = await t.call(`/api/resources/${resource.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: resource.id, indicator: resource.indicator });
    const patched = await t.call(`/api/resources/${resource.id}`, {
      method: 'PATCH',
      body: { name: 'Renamed API', accessTokenTtl: 60 },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id: resource.id, name: 'Renamed API', accessTokenTtl: 60 });
    const deleted = await t.call(`/api/resources/${resource.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const method of ['GET', 'DELETE'] as const) {
      const gone = await t.call(`/api/resources/${resource.id}`, { method });
      expect(gone.status, method).toBe(404);
      expect(gone.json.code, method).toBe('entity.not_exists_with_id');
    }
  });

  it('never modifies or deletes the Management API resource', async () => {
    const path = `/api/resources/${seededIds.managementResource}`;
    const before = await t.call(path);
    expect(before.status).toBe(200);
    const patched = await t.call(path, { method: 'PATCH', body: { name: 'Mine now' } });
    expect(patched.status).toBeGreaterThanOrEqual(400);
    expect(patched.status).toBeLessThan(500);
    const deleted = await t.call(path, { method: 'DELETE' });
    expect(deleted.status).toBeGreaterThanOrEqual(400);
    expect(deleted.status).toBeLessThan(500);
    expect((await t.call(path)).json).toEqual(before.json);
  });

  it('PATCH /resources/{id}/is-default {isDefault} keeps at most one default', async () => {
    const [a, b] = [await newResource(), await newResource()];
    const first = await t.call(`/api/resources/${a.id}/is-default`, { method: 'PATCH', body: { isDefault: true } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ id: a.id, isDefault: true });
    const second = await t.call(`/api/resources/${b.id}/is-default`, { method: 'PATCH', body: { isDefault: true } });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ id: b.id, isDefault: true });
    expect((await t.call(`/api/resources/${a.id}`)).json.isDefault).toBe(false);
    const defaults = (await t.call('/api/resources')).json.filter((r: { isDefault: boolean }) => r.isDefault);
    expect(defaults.map((r: { id: string }) => r.id)).toEqual([b.id]);
    const off = await t.call(`/api/resources/${b.id}/is-default`, { method: 'PATCH', body: { isDefault: false } });
    expect(off.json.isDefault).toBe(false);
  });
});

describe('GET /resources (optional pagination, includeScopes)', () => {
  it('answers every resource without Total-Number, and pages with it when asked', async () => {
    await newResource();
    await newResource();
    const whole = await t.call('/api/resources');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Total-Number')).toBeNull();
    const total = whole.json.length;
    expect(total).toBeGreaterThanOrEqual(3);
    const page = await t.call('/api/resources?page=1&page_size=2');
    expect(page.headers.get('Total-Number')).toBe(String(total));
    expect(page.json).toHaveLength(2);
    for (const resource of whole.json) {
      expect(Object.keys(resource)).toEqual(
        expect.arrayContaining(['id', 'name', 'indicator', 'isDefault', 'accessTokenTtl']),
      );
      expect(resource).not.toHaveProperty('scopes');
    }
  });

  it('adds each resource’s scopes with includeScopes=true', async () => {
    const resource = await newResource();
    const scope = await t.call(`/api/resources/${resource.id}/scopes`, {
      method: 'POST',
      body: { name: 'read:all', description: 'Read' },
    });
    const list = await t.call('/api/resources?includeScopes=true');
    expect(list.status).toBe(200);
    const found = list.json.find((r: { id: string }) => r.id === resource.id);
    expect(found.scopes).toEqual([scope.json]);
    for (const item of list.json) expect(Array.isArray(item.scopes)).toBe(true);
  });
});

describe('/resources/{resourceId}/scopes', () => {
  it('creates {name, description} with 201 and the Scope fields', async () => {
    const resource = await newResource();
    const response = await t.call(`/api/resources/${resource.id}/scopes`, {
      method: 'POST',
      body: { name: 'write:things', description: 'Write things' },
    });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ resourceId: resource.id, name: 'write:things', description: 'Write things' });
    expect(typeof response.json.id).toBe('string');
    expect(typeof response.json.createdAt).toBe('number');
  });

  it('refuses a name already in the resource with 422 scope.name_exists; another resource may reuse it', async () => {
    const [a, b] = [await newResource(), await newResource()];
    const body = { name: 'read:dup', description: '' };
    expect((await t.call(`/api/resources/${a.id}/scopes`, { method: 'POST', body })).status).toBe(201);
    const again = await t.call(`/api/resources/${a.id}/scopes`, { method: 'POST', body });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('scope.name_exists');
    expect((await t.call(`/api/resources/${b.id}/scopes`, { method: 'POST', body })).status).toBe(201);
    const other = await t.call(`/api/resources/${a.id}/scopes`, { method: 'POST', body: { name: 'read:other' } });
    const renamed = await t.call(`/api/resources/${a.id}/scopes/${other.json.id}`, {
      method: 'PATCH',
      body: { name: 'read:dup' },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.json.code).toBe('scope.name_exists');
  });

  it('lists with mandatory pagination and search=%keyword%; patches with 200 and deletes with 204', async () => {
    const resource = await newResource();
    const path = `/api/resources/${resource.id}/scopes`;
    for (const name of ['read:alpha', 'read:beta', 'write:alpha']) {
      expect((await t.call(path, { method: 'POST', body: { name } })).status).toBe(201);
    }
    const list = await t.call(path);
    expect(list.status).toBe(200);
    expect(list.headers.get('Total-Number')).toBe('3');
    const searched = await t.call(`${path}?search=${encodeURIComponent('%alpha%')}`);
    expect(searched.json.map((s: { name: string }) => s.name).sort()).toEqual(['read:alpha', 'write:alpha']);
    expect(searched.headers.get('Total-Number')).toBe('2');

    const scope = list.json[0];
    const patched = await t.call(`${path}/${scope.id}`, {
      method: 'PATCH',
      body: { name: 'read:gamma', description: 'Gamma' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id: scope.id, name: 'read:gamma', description: 'Gamma' });
    const deleted = await t.call(`${path}/${scope.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await t.call(path)).headers.get('Total-Number')).toBe('2');
    const again = await t.call(`${path}/${scope.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('takes the reference’s search syntax over id, name and description (issue 43)', async () => {
    const resource = await newResource();
    const path = `/api/resources/${resource.id}/scopes`;
    const created: Record<string, string> = {};
    for (const [name, description] of [
      ['read:orders', 'Read the orders'],
      ['write:orders', 'Change orders'],
      ['read:invoices', 'Read invoices of orders'],
    ] as const) {
      created[name] = (await t.call(path, { method: 'POST', body: { name, description } })).json.id;
    }
    const names = async (query: string) => {
      const response = await t.call(`${path}?${query}`);
      expect(response.status, `${query}: ${response.text}`).toBe(200);
      return response.json.map((scope: { name: string }) => scope.name).sort();
    };
    expect(await names('search.name=%25orders')).toEqual(['read:orders', 'write:orders']);
    expect(await names('search.description=%25invoices%25')).toEqual(['read:invoices']);
    expect(await names('search=%25orders%25')).toEqual(['read:invoices', 'read:orders', 'write:orders']);
    expect(await names('search=orders'), 'without %: the whole value (issue 43)').toEqual([]);
    expect(await names('search.name=read%3Aorders&search.name=write%3Aorders&mode=exact')).toEqual([
      'read:orders',
      'write:orders',
    ]);
    expect(await names(`search.id=${created['read:orders']}&mode.id=exact`)).toEqual(['read:orders']);
    expect(await names('search.name=read%25&search.description=%25invoices%25&joint=and')).toEqual(['read:invoices']);
    expect(await names('search.description=READ%25&isCaseSensitive=true')).toEqual([]);
    for (const query of ['search.indicator=x', 'search=x&mode=posix', 'search=x&mode=similar_to']) {
      const refused = await t.call(`${path}?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.json.code, query).toBe('request.invalid_input');
    }
  });

  it('answers 404 for scopes of an unknown resource', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'read:x' }],
    ] as const) {
      const response = await t.call('/api/resources/no-such-resource/scopes', { method, body });
      expect(response.status, method).toBe(404);
      expect(response.json.code, method).toBe('entity.not_exists_with_id');
    }
  });

  it('a scope that is not there: PATCH is entity.not_exists, DELETE entity.not_found (issue 43)', async () => {
    // The reference updates and deletes a scope by id: its update miss and its deletion miss.
    const resource = await newResource();
    const patched = await t.call(`/api/resources/${resource.id}/scopes/no-such-scope`, {
      method: 'PATCH',
      body: { name: 'read:y' },
    });
    expect(patched.status).toBe(404);
    expect(patched.json.code).toBe('entity.not_exists');
    const deleted = await t.call(`/api/resources/${resource.id}/scopes/no-such-scope`, { method: 'DELETE' });
    expect(deleted.status).toBe(404);
    expect(deleted.json.code).toBe('entity.not_found');
  });

  it('PATCH /resources/{unknown}/is-default is entity.not_exists, the reference’s update miss (issue 43)', async () => {
    const response = await t.call('/api/resources/no-such-resource/is-default', {
      method: 'PATCH',
      body: { isDefault: true },
    });
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('entity.not_exists');
  });
});
