import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const createRole = (body: Record<string, unknown>) => t.call('/api/roles', { method: 'POST', body });

describe('roles API', () => {
  it('creates, reads, updates and deletes a role', async () => {
    const created = await createRole({ name: 'editor', description: 'Edits content' });
    expect(created.status, 'create answers 200 with the role').toBe(200);
    expect(created.json).toMatchObject({
      name: 'editor',
      description: 'Edits content',
      type: 'User',
      isDefault: false,
    });
    const id = String(created.json.id);
    expect(id).toMatch(/^[0-9a-z]{21}$/);

    const read = await t.call(`/api/roles/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const patched = await t.call(`/api/roles/${id}`, { method: 'PATCH', body: { description: 'Edits everything' } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id, name: 'editor', description: 'Edits everything' });

    const deleted = await t.call(`/api/roles/${id}`, { method: 'DELETE' });
    expect(deleted.status, 'delete answers 204 without a body').toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/api/roles/${id}`)).status, 'a deleted role is gone').toBe(404);
  });

  it('answers 422 role.name_in_use for a duplicate name and keeps the first role', async () => {
    expect((await createRole({ name: 'duplicate' })).status).toBe(200);
    const second = await createRole({ name: 'duplicate', description: 'second' });
    expect(second.status).toBe(422);
    expect(second.json).toMatchObject({ code: 'role.name_in_use', message: 'A role with this name already exists.' });
    const list = await t.call('/api/roles?search=duplicate');
    expect(list.json, 'only the first role exists').toHaveLength(1);
  });

  it('rejects invalid input with the failing fields and saves nothing', async () => {
    const before = Number((await t.call('/api/roles')).headers.get('Total-Number'));
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(129) },
      { name: 'ok', description: 'd'.repeat(129) },
      { name: 'ok', type: 'Robot' },
      { name: 42 },
      { name: 'ok', unknownField: true },
    ]) {
      const response = await createRole(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
      expect(Array.isArray(response.json.data), 'data lists the failing fields').toBe(true);
    }
    const response = await createRole({ name: 'x'.repeat(129) });
    expect(response.json.data).toEqual([expect.objectContaining({ path: 'name' })]);
    expect(Number((await t.call('/api/roles')).headers.get('Total-Number'))).toBe(before);
  });

  it('answers 404 entity.not_found for unknown ids on read, update and delete', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await t.call('/api/roles/does-not-exist', {
        method,
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      expect(response.status, method).toBe(404);
      expect(response.json.code).toBe('entity.not_found');
    }
  });

  it('lists newest first with search and type filters', async () => {
    await createRole({ name: 'search-alpha' });
    await createRole({ name: 'search-beta', type: 'MachineToMachine' });
    const all = await t.call('/api/roles?search=search-');
    expect(all.json.map((role: { name: string }) => role.name)).toEqual(['search-beta', 'search-alpha']);
    const machine = await t.call('/api/roles?search=search-&type=MachineToMachine');
    expect(machine.json.map((role: { name: string }) => role.name)).toEqual(['search-beta']);
    const wildcard = await t.call(`/api/roles?search=${encodeURIComponent('%alpha%')}`);
    expect(wildcard.json.map((role: { name: string }) => role.name)).toEqual(['search-alpha']);
    const literal = await t.call(`/api/roles?search=${encodeURIComponent('search_')}`);
    expect(literal.status).toBe(200);
  });

  it('audits every write with actor, before/after and the changed fields, and queues events', async () => {
    const created = await createRole({ name: 'audited', description: 'v1' });
    const id = String(created.json.id);
    await t.call(`/api/roles/${id}`, { method: 'PATCH', body: { description: 'v2' } });
    await t.call(`/api/roles/${id}`, { method: 'DELETE' });

    const logs = await t.call('/api/logs?page_size=100');
    const entries = (logs.json as { key: string; payload: Record<string, unknown> }[]).filter(
      (log) => (log.payload.entity as { id: string } | undefined)?.id === id,
    );
    expect(entries.map((log) => log.key)).toEqual(['Admin.Role.Deleted', 'Admin.Role.Updated', 'Admin.Role.Created']);
    const [deleted, updated, createdLog] = entries;
    expect(createdLog?.payload).toMatchObject({
      result: 'Success',
      actor: { type: 'user', id: 'test-admin' },
      before: null,
      after: { id, description: 'v1' },
    });
    expect(updated?.payload.changes).toEqual([{ field: 'description', before: 'v1', after: 'v2' }]);
    expect(deleted?.payload).toMatchObject({ before: { id, description: 'v2' }, after: null });
  });
});
