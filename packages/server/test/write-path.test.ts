import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { logs, outbox, roles } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { ApiError } from '../src/http/errors.ts';
import { performWrite, type WriteContext } from '../src/services/write-path.ts';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let tenant: TenantDb;
let ctx: WriteContext;
beforeAll(async () => {
  t = await createTestApp();
  tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
  ctx = { tenant, actor: { type: 'user', id: 'writer' }, requestId: 'req-1' };
});
afterAll(() => t.close());

const nameSchema = z.object({ name: z.string().min(1) });
const counts = async () => ({
  roles: await tenant.count(roles),
  logs: await tenant.count(logs),
  outbox: await tenant.count(outbox),
});

describe('the write path', () => {
  it('writes the row, one audit entry and its events in one go', async () => {
    const before = await counts();
    await performWrite(
      ctx,
      { key: 'Admin.Role.Created', schema: nameSchema, input: { name: 'wp-ok' } },
      async (tx, input) => {
        const row = await tx.insert(roles, { id: 'wp-ok', name: input.name });
        return {
          result: row,
          entity: { type: 'Role', id: row.id },
          before: null,
          after: { name: row.name },
          events: [{ event: 'Role.Created', data: { id: row.id } }],
        };
      },
    );
    expect(await counts()).toEqual({ roles: before.roles + 1, logs: before.logs + 1, outbox: before.outbox + 1 });
    const [event] = await tenant.findMany(outbox, { where: eq(outbox.event, 'Role.Created') });
    expect(event?.payload).toMatchObject({ event: 'Role.Created', data: { id: 'wp-ok' }, actor: { id: 'writer' } });
    const [entry] = await tenant.findMany(logs, { where: eq(logs.userId, 'writer') });
    expect(entry?.payload).toMatchObject({
      requestId: 'req-1',
      changes: [{ field: 'name', before: null, after: 'wp-ok' }],
    });
  });

  it('a write that fails after inserting leaves no row, no audit entry and no event', async () => {
    const before = await counts();
    await expect(
      performWrite(ctx, { key: 'Admin.Role.Created', schema: nameSchema, input: { name: 'wp-fail' } }, async (tx) => {
        await tx.insert(roles, { id: 'wp-fail', name: 'wp-fail' });
        throw new ApiError(400, 'guard.invalid_input');
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await counts()).toEqual(before);
    expect(await tenant.findOne(roles, eq(roles.id, 'wp-fail'))).toBeUndefined();
  });

  it('a unique violation rolls back and becomes a 422', async () => {
    const before = await counts();
    const attempt = performWrite(
      ctx,
      { key: 'Admin.Role.Created', schema: nameSchema, input: { name: 'wp-ok' } },
      async (tx) => {
        const row = await tx.insert(roles, { id: 'wp-dup', name: 'wp-ok' });
        return { result: row, entity: { type: 'Role', id: row.id }, before: null, after: null };
      },
    );
    await expect(attempt).rejects.toMatchObject({ kind: 'conflict', code: 'role.name_in_use' });
    expect(await counts()).toEqual(before);
  });

  it('invalid input is refused before anything runs', async () => {
    const before = await counts();
    let ran = false;
    await expect(
      performWrite(ctx, { key: 'Admin.Role.Created', schema: nameSchema, input: { name: '' } }, async () => {
        ran = true;
        return { result: null, entity: { type: 'Role', id: 'x' }, before: null, after: null };
      }),
    ).rejects.toMatchObject({ kind: 'invalid', code: 'guard.invalid_input' });
    expect(ran).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('through the API, a failed write leaves no audit or outbox row', async () => {
    const before = await counts();
    await t.call('/api/roles', { method: 'POST', body: { name: 'wp-api' } });
    const duplicate = await t.call('/api/roles', { method: 'POST', body: { name: 'wp-api' } });
    expect(duplicate.status).toBe(422);
    expect(await counts()).toEqual({ roles: before.roles + 1, logs: before.logs + 1, outbox: before.outbox + 1 });
  });
});
