import { generateId } from '@gatehouse/schemas';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs, outbox, users } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { otherTenant, ownTenant } from './support/scenarios.ts';

// TenantDb.insertMany writes many rows with one parameter per column (db/bulk-insert.ts): what it stores and answers
// must be what drizzle's multi-row insert stores and answers.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Text that array literals and JSON must carry through unchanged. */
const awkward = 'quote " backslash \\ comma , braces {} NULL é 漢字 \u{1F600} \t tab';

describe('bulk insert (insertMany)', () => {
  it('stores given values, column defaults and NULLs, and answers the rows as stored', async () => {
    const tenant = ownTenant(t);
    const prefix = generateId(6);
    const inserted = await tenant.insertMany(users, [
      {
        id: `${prefix}a`,
        username: `${prefix}_a`,
        name: awkward,
        customData: { [awkward]: [awkward, 1, null, { nested: true }] },
        profile: {},
        passwordEncrypted: 'digest',
        passwordEncryptionMethod: 'SHA256',
      },
      // Leaves out columns the first row gives: NULL for those without a default.
      { id: `${prefix}b`, primaryEmail: `${prefix}@example.com`, customData: {}, profile: { givenName: 'B' } },
    ]);
    const stored = await tenant.findMany(users, { where: inArray(users.id, [`${prefix}a`, `${prefix}b`]) });
    const byId = (rows: typeof stored) => Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId(inserted)).toEqual(byId(stored));
    const [a, b] = [byId(stored)[`${prefix}a`], byId(stored)[`${prefix}b`]];
    expect(a).toMatchObject({
      tenantId: tenant.tenantId,
      name: awkward,
      customData: { [awkward]: [awkward, 1, null, { nested: true }] },
      passwordEncrypted: 'digest',
      // Database defaults of columns no row gives.
      isSuspended: false,
      identities: {},
      primaryEmailVerified: false,
      lastSignInAt: null,
    });
    expect(a?.createdAt).toBeInstanceOf(Date);
    expect(b).toMatchObject({ username: null, passwordEncrypted: null, profile: { givenName: 'B' } });
    expect(
      await otherTenant(t).findMany(users, { where: eq(users.id, `${prefix}a`) }),
      'stamped with its tenant',
    ).toEqual([]);
  });

  it('without returning, writes the rows (an identity column left to the database) and answers none', async () => {
    const tenant = ownTenant(t);
    const ids = [generateId(), generateId()];
    const answer = await tenant.insertMany(
      logs,
      ids.map((id) => ({ id, key: 'Admin.User.Created' as const, userId: null, payload: { text: awkward, id } })),
      { returning: false },
    );
    expect(answer).toEqual([]);
    const stored = await tenant.findMany(logs, { where: inArray(logs.id, ids) });
    expect(stored.map((row) => row.payload).sort((x, y) => String(x.id).localeCompare(String(y.id)))).toEqual(
      ids.map((id) => ({ text: awkward, id })).sort((x, y) => x.id.localeCompare(y.id)),
    );
    const marker = generateId();
    await tenant.insertMany(outbox, [{ event: 'User.Created', payload: { marker } }], { returning: false });
    // Asked for rows, an identity column cannot be left out of a select list: drizzle's insert answers them.
    const [event] = await tenant.insertMany(outbox, [{ event: 'User.Deleted', payload: { marker } }]);
    expect(event).toMatchObject({ event: 'User.Deleted', payload: { marker }, processedAt: null });
    expect(typeof event?.id).toBe('number');
    expect(await tenant.count(outbox, sql`${outbox.payload}->>'marker' = ${marker}`)).toBe(2);
  });
});
