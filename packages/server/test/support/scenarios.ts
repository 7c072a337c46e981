import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { logs, outbox } from '../../src/db/tables.ts';
import { TenantDb } from '../../src/db/tenant-db.ts';
import type { TestApp } from './app.ts';

/** Helpers that keep the API scenario tests short: guards, audit rows, events, the other tenant. */

export type RouteCall = { method: string; path: string; body?: unknown };

/** Every route answers 401 without a token and 403 with a token lacking scope `all`. */
export async function expectGuarded(t: TestApp, routes: readonly RouteCall[]): Promise<void> {
  const weak = await t.token({ scope: 'read:data' });
  for (const route of routes) {
    const label = `${route.method} ${route.path}`;
    const anonymous = await t.call(route.path, { method: route.method, body: route.body, auth: false });
    expect(anonymous.status, `${label} without a token`).toBe(401);
    expect(anonymous.json.code).toBe('auth.unauthorized');
    const forbidden = await t.call(route.path, {
      method: route.method,
      body: route.body,
      headers: { Authorization: `Bearer ${weak}` },
    });
    expect(forbidden.status, `${label} without scope all`).toBe(403);
    expect(forbidden.json.code).toBe('auth.forbidden');
  }
}

/** A 400 `guard.invalid_input` whose data names `path` among the failing fields. */
export function expectInvalid(response: { status: number; json: unknown }, path?: string, label = ''): void {
  const json = response.json as { code?: string; data?: { path: string }[] };
  expect(response.status, `${label} answers 400`).toBe(400);
  expect(json.code, label).toBe('guard.invalid_input');
  expect(Array.isArray(json.data), `${label}: data lists the failing fields`).toBe(true);
  if (path !== undefined) {
    expect(
      json.data?.map((field) => field.path),
      label,
    ).toContain(path);
  }
}

export type AuditEntry = { key: string; payload: Record<string, unknown> };

/** The audit entries about one entity, newest first. */
export async function auditEntries(t: TestApp, entityId: string): Promise<AuditEntry[]> {
  const rows = await new TenantDb(t.db, DEFAULT_TENANT_ID).findMany(logs, {
    orderBy: [desc(logs.createdAt), desc(logs.id)],
  });
  return rows
    .filter((row) => (row.payload.entity as { id?: string } | undefined)?.id === entityId)
    .map((row) => ({ key: row.key, payload: row.payload }));
}

/** The data of the outbox events named `event` (oldest first). */
export async function queuedEvents(t: TestApp, event: string): Promise<Record<string, unknown>[]> {
  const rows = await new TenantDb(t.db, DEFAULT_TENANT_ID).findMany(outbox, { where: eq(outbox.event, event) });
  return rows.map((row) => row.payload.data as Record<string, unknown>);
}

/** Data access to another tenant than the one the OSS API serves, to prove its ids stay invisible. */
export const otherTenant = (t: TestApp) => new TenantDb(t.db, ADMIN_TENANT_ID);
export const ownTenant = (t: TestApp) => new TenantDb(t.db, DEFAULT_TENANT_ID);
