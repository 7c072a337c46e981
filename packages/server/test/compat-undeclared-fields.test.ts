import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ME_RESOURCE } from '../src/auth/issuers.ts';
import { dropUndeclaredKeys } from '../src/http/undeclared-keys.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries } from './support/scenarios.ts';

/**
 * Issue 43: the reference's management API ignores body fields it does not declare, so its clients PATCH back whole
 * GET answers (read-only `id`, `tenantId`, `createdAt` included) and send fields of newer versions. Gatehouse drops
 * them before validation on the management API; the 'me' and cloud APIs (the console's own) still refuse them.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('dropUndeclaredKeys', () => {
  const schema = z.strictObject({
    name: z.string(),
    nested: z.strictObject({ a: z.number() }).optional(),
    list: z.array(z.strictObject({ b: z.boolean() })).optional(),
    map: z.record(z.string(), z.strictObject({ c: z.string() })).optional(),
    loose: z.looseObject({ d: z.string() }).optional(),
    free: z.record(z.string(), z.unknown()).optional(),
    either: z
      .union([z.strictObject({ kind: z.literal('x'), x: z.number() }), z.strictObject({ kind: z.literal('y') })])
      .optional(),
  });

  it('drops undeclared keys at every depth of strict objects, and nothing else', () => {
    const value = {
      name: 'n',
      extra: 1,
      nested: { a: 1, extra: 2 },
      list: [{ b: true, extra: 3 }],
      map: { k: { c: 'c', extra: 4 } },
      loose: { d: 'd', kept: 5 },
      free: { anything: 6 },
    };
    expect(dropUndeclaredKeys(schema, value)).toBe(true);
    expect(value).toEqual({
      name: 'n',
      nested: { a: 1 },
      list: [{ b: true }],
      map: { k: { c: 'c' } },
      loose: { d: 'd', kept: 5 },
      free: { anything: 6 },
    });
    expect(schema.safeParse(value).success).toBe(true);
    expect(dropUndeclaredKeys(schema, { name: 'n' }), 'nothing to drop').toBe(false);
  });

  it('resolves a union only when one option fits once undeclared keys are gone', () => {
    const fits = { name: 'n', either: { kind: 'x', x: 1, extra: true } };
    dropUndeclaredKeys(schema, fits);
    expect(fits.either).toEqual({ kind: 'x', x: 1 });
    // No option fits (a wrong declared value): left as sent, so the validator names what is wrong.
    const wrong = { name: 'n', either: { kind: 'x', x: 'one', extra: true } };
    dropUndeclaredKeys(schema, wrong);
    expect(wrong.either).toEqual({ kind: 'x', x: 'one', extra: true });
    expect(schema.safeParse(wrong).success).toBe(false);
  });

  it('leaves values of the wrong kind to the validator', () => {
    for (const value of [null, 'text', 42, [1, 2], { name: 1, extra: 2 }]) {
      const before = structuredClone(value);
      dropUndeclaredKeys(schema, value);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) expect(value).toEqual({ name: 1 });
      else expect(value).toEqual(before);
    }
  });
});

describe('the management API drops undeclared body fields', () => {
  it('PATCH /applications/{id} with the whole GET answer back, plus a field of another version', async () => {
    const created = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'Round trip', type: 'Traditional', futureField: { a: 1 } },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).not.toHaveProperty('futureField');
    const id = String(created.json.id);
    const read = await t.call(`/api/applications/${id}`);
    const patched = await t.call(`/api/applications/${id}`, {
      method: 'PATCH',
      body: { ...read.json, description: 'Changed', tenantId: 'another-tenant', id: 'another-id' },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json).toMatchObject({ id, description: 'Changed' });
    expect((await t.call('/api/applications/another-id')).status, 'the id in the body is not a rename').toBe(404);
    const [entry] = await auditEntries(t, id);
    expect(JSON.stringify(entry?.payload ?? {})).not.toContain('another-tenant');
  });

  it('PATCH /users/{id} with read-only fields of the GET answer', async () => {
    const created = await t.call('/api/users', { method: 'POST', body: { username: 'undeclared_fields' } });
    expect(created.status).toBe(200);
    const id = String(created.json.id);
    const patched = await t.call(`/api/users/${id}`, {
      method: 'PATCH',
      body: { ...created.json, name: 'Whole answer', isSuspended: true, lastSignInAt: 1 },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json).toMatchObject({ id, name: 'Whole answer', isSuspended: false, lastSignInAt: null });
  });

  it('still answers 400 for a wrong value of a declared field, and nothing is saved', async () => {
    const created = await t.call('/api/applications', { method: 'POST', body: { name: 'Kept', type: 'SPA' } });
    const id = String(created.json.id);
    const refused = await t.call(`/api/applications/${id}`, { method: 'PATCH', body: { name: 42, extra: true } });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('guard.invalid_input');
    expect(JSON.stringify(refused.json.data), 'only the declared field is named').not.toContain('extra');
    expect((await t.call(`/api/applications/${id}`)).json.name).toBe('Kept');
  });

  it("the 'me' API, the console's own, still refuses them", async () => {
    const token = await t.token({ audience: ME_RESOURCE, subject: 'console-user', scope: 'all' });
    const response = await t.call('/api/me', {
      method: 'PATCH',
      body: { name: 'Me', undeclared: true },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
  });
});
