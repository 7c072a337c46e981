import { generateId } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const valid = {
  name: 'Sync to CRM',
  events: ['User.Created', 'PostSignIn'],
  config: { url: 'https://hooks.example.com/gatehouse', headers: { Authorization: 'Bearer crm-token' } },
};
const createHook = (body: Record<string, unknown>) => t.call('/api/hooks', { method: 'POST', body });

describe('hooks CRUD', () => {
  it('creates with defaults and a generated signing key, reads, lists, updates and deletes, audited without secrets', async () => {
    const created = await createHook(valid);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      tenantId: 'default',
      name: 'Sync to CRM',
      events: ['User.Created', 'PostSignIn'],
      config: { url: valid.config.url, headers: { Authorization: 'Bearer crm-token' }, retries: 3 },
      enabled: true,
    });
    expect(created.json.signingKey).toMatch(/^[0-9a-f]{64}$/);
    const id = String(created.json.id);
    expect((await t.call(`/api/hooks/${id}`)).json).toEqual(created.json);

    const second = await createHook({
      name: 'Second',
      events: ['Role.Deleted'],
      config: { url: 'http://10.0.0.5:8080/in', retries: 0 },
      enabled: false,
    });
    expect(second.json).toMatchObject({ enabled: false, config: { headers: {}, retries: 0 } });
    expect(second.json.signingKey).not.toBe(created.json.signingKey);

    const list = await t.call('/api/hooks?page=1&page_size=1');
    expect(list.status).toBe(200);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(list.json.map((hook: { id: string }) => hook.id)).toEqual([second.json.id]);
    expect((await t.call('/api/hooks?page=2&page_size=1')).json[0].id).toBe(id);
    const byName = await t.call('/api/hooks?search=crm&page=1');
    expect(byName.headers.get('Total-Number'), 'search matches the name, case-insensitively').toBe('1');
    expect(byName.json[0].id).toBe(id);
    expect((await t.call('/api/hooks?search=10.0.0.5')).json.map((hook: { id: string }) => hook.id)).toEqual([
      second.json.id,
    ]);
    expect((await t.call('/api/hooks?search=nothing-like-it')).json).toEqual([]);

    const patched = await t.call(`/api/hooks/${id}`, {
      method: 'PATCH',
      body: { name: 'CRM', config: { retries: 1 }, enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      name: 'CRM',
      enabled: false,
      config: { url: valid.config.url, headers: { Authorization: 'Bearer crm-token' }, retries: 1 },
      signingKey: created.json.signingKey,
    });
    const headersReplaced = await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: { config: { headers: {} } } });
    expect(headersReplaced.json.config).toEqual({ url: valid.config.url, headers: {}, retries: 1 });
    expect((await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: {} })).json).toEqual(headersReplaced.json);

    const rotated = await t.call(`/api/hooks/${id}/signing-key`, { method: 'PATCH' });
    expect(rotated.status).toBe(200);
    expect(rotated.json.signingKey).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.json.signingKey).not.toBe(created.json.signingKey);
    expect((await t.call(`/api/hooks/${id}`)).json.signingKey).toBe(rotated.json.signingKey);

    const entries = await auditEntries(t, id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.Hook.SigningKeyRotated',
      'Admin.Hook.Updated',
      'Admin.Hook.Updated',
      'Admin.Hook.Updated',
      'Admin.Hook.Created',
    ]);
    const serialized = JSON.stringify(entries);
    expect(serialized, 'no signing key in the audit log').not.toContain(String(created.json.signingKey));
    expect(serialized).not.toContain(String(rotated.json.signingKey));
    expect(serialized, 'no header value in the audit log').not.toContain('crm-token');
    expect(entries.at(-1)?.payload.after).toMatchObject({ config: { headers: { Authorization: '[redacted]' } } });

    expect((await t.call(`/api/hooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/hooks/${id}`)).status).toBe(404);
    expect((await auditEntries(t, id))[0]?.key).toBe('Admin.Hook.Deleted');
  });

  it('rejects bad input with 400 naming the field, and saves nothing', async () => {
    const before = (await t.call('/api/hooks?page=1')).headers.get('Total-Number');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: '' }, 'name'],
      [{ ...valid, name: 'x'.repeat(257) }, 'name'],
      [{ ...valid, events: [] }, 'events'],
      [{ ...valid, events: ['User.Exploded'] }, 'events.0'],
      [{ ...valid, events: ['OrganizationInvitation.MessageRequested'] }, 'events.0'],
      [{ ...valid, events: ['User.Created', 'User.Created'] }, 'events'],
      [{ ...valid, config: { url: 'ftp://example.com/in' } }, 'config.url'],
      [{ ...valid, config: { url: '/relative/path' } }, 'config.url'],
      [{ ...valid, config: { url: 'https://alice:secret@example.com/in' } }, 'config.url'],
      [{ ...valid, config: { url: 'https://example.com', retries: 4 } }, 'config.retries'],
      [{ ...valid, config: { url: 'https://example.com', retries: -1 } }, 'config.retries'],
      [{ ...valid, config: { url: 'https://example.com', retries: 1.5 } }, 'config.retries'],
      [{ ...valid, config: { url: 'https://example.com', headers: { Host: 'evil.example' } } }, 'config.headers.Host'],
      [
        { ...valid, config: { url: 'https://example.com', headers: { 'content-length': '1' } } },
        'config.headers.content-length',
      ],
      [{ ...valid, config: { url: 'https://example.com', headers: { 'Bad Name': 'x' } } }, 'config.headers.Bad Name'],
      [{ ...valid, config: { url: 'https://example.com', headers: { 'X-A': 'a\r\nX-B: b' } } }, 'config.headers.X-A'],
      [
        { ...valid, config: { url: 'https://example.com', headers: { 'X-Big': 'v'.repeat(4097) } } },
        'config.headers.X-Big',
      ],
      [
        {
          ...valid,
          config: {
            url: 'https://example.com',
            headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])),
          },
        },
        'config.headers',
      ],
    ];
    for (const [body, path] of cases) {
      expectInvalid(await createHook(body), path || undefined, JSON.stringify(body).slice(0, 120));
    }
    expect((await t.call('/api/hooks?page=1')).headers.get('Total-Number')).toBe(before);

    const id = String((await createHook(valid)).json.id);
    expectInvalid(await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: { events: [] } }), 'events');
    expectInvalid(
      await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: { config: { url: 'https://u:p@x.example' } } }),
      'config.url',
    );
    expectInvalid(
      await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: { config: { retries: 9 } } }),
      'config.retries',
    );
    expect((await t.call(`/api/hooks/${id}`)).json).toMatchObject({ events: valid.events, config: { retries: 3 } });
  });

  it('answers 404 for unknown hooks and for hooks of another tenant', async () => {
    const foreignId = generateId();
    await otherTenant(t).insert(hooks, {
      id: foreignId,
      name: 'Foreign',
      events: ['User.Created'],
      config: { url: 'https://foreign.example.com', retries: 3 },
      headers: {},
      signingKey: 'f'.repeat(64),
    });
    for (const id of [foreignId, 'unknown-hook']) {
      expect((await t.call(`/api/hooks/${id}`)).status).toBe(404);
      expect((await t.call(`/api/hooks/${id}`, { method: 'PATCH', body: { name: 'Mine' } })).status).toBe(404);
      expect((await t.call(`/api/hooks/${id}/signing-key`, { method: 'PATCH' })).status).toBe(404);
      expect((await t.call(`/api/hooks/${id}/test`, { method: 'POST' })).status).toBe(404);
      expect((await t.call(`/api/hooks/${id}/recent-logs`)).status).toBe(404);
      expect((await t.call(`/api/hooks/${id}`, { method: 'DELETE' })).status).toBe(404);
    }
    const list = (await t.call('/api/hooks?page_size=100')).json as { id: string }[];
    expect(list.map((hook) => hook.id)).not.toContain(foreignId);
    expect((await otherTenant(t).findMany(hooks)).map((hook) => hook.name)).toEqual(['Foreign']);
  });

  it('guards every route with 401 and 403', async () => {
    const id = String((await createHook(valid)).json.id);
    await expectGuarded(t, [
      { method: 'GET', path: '/api/hooks' },
      { method: 'POST', path: '/api/hooks', body: valid },
      { method: 'GET', path: `/api/hooks/${id}` },
      { method: 'PATCH', path: `/api/hooks/${id}`, body: { name: 'x' } },
      { method: 'DELETE', path: `/api/hooks/${id}` },
      { method: 'PATCH', path: `/api/hooks/${id}/signing-key` },
      { method: 'POST', path: `/api/hooks/${id}/test` },
      { method: 'GET', path: `/api/hooks/${id}/recent-logs` },
      { method: 'GET', path: `/api/hooks/${id}/recent-logs/someid` },
      { method: 'POST', path: `/api/hooks/${id}/recent-logs/someid/replay` },
    ]);
    expect((await t.call(`/api/hooks/${id}`)).status).toBe(200);
  });
});
