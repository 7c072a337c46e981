import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredLogs } from '../src/services/log-retention-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Audit-log retention (spec §9: Free 3 days, Development and Pro 14): an entry past its tenant's retention is not
 * listed, not readable by id, not exported, and the purge deletes it; an entry inside the window stays. OSS keeps
 * everything unless AUDIT_LOG_RETENTION_DAYS says otherwise.
 */

type Entry = { id: string };
const ids = (json: unknown) => (json as Entry[]).map((entry) => entry.id).sort();

async function insertAged(t: TestApp, tenantId: string, entries: Record<string, number>) {
  for (const [id, days] of Object.entries(entries)) {
    await t.db.execute(sql`insert into logs (tenant_id, id, key, user_id, payload, created_at)
      values (${tenantId}, ${id}, 'Interaction.SignIn.Submit', 'aged_user', '{"result":"Success"}'::jsonb,
              now() - ${days} * interval '1 day')`);
  }
}
const remaining = async (t: TestApp, tenantId: string) => {
  const result = (await t.db.execute(
    sql`select id from logs where tenant_id = ${tenantId} and user_id = 'aged_user' order by id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows.map((row) => row.id);
};

describe('cloud: the plan says how long entries stay', () => {
  let t: TestApp;
  const api = (path: string) => t.call(`/m/default/api${path}`);
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'cloud' });
    // A production tenant without a subscription row is on Free: 3 days.
    await t.db.execute(sql`update tenants set tag = 'production' where id = 'default'`);
    await t.db.execute(sql`delete from tenant_subscriptions where tenant_id = 'default'`);
    await insertAged(t, 'default', { 'free-old': 4, 'free-recent': 2 });
  });
  afterAll(() => t.close());

  it('lists, reads and exports only the entries inside the Free plan window', async () => {
    const list = await api('/logs?userId=aged_user');
    expect(list.status).toBe(200);
    expect(ids(list.json)).toEqual(['free-recent']);
    expect(list.headers.get('Total-Number')).toBe('1');
    expect((await api('/logs/free-recent')).status).toBe(200);
    const old = await api('/logs/free-old');
    expect(old.status, 'an entry past retention is not readable by id').toBe(404);
    expect(old.json.code).toBe('entity.not_exists_with_id');
    const exported = await api('/logs/export?userId=aged_user&format=json');
    expect(exported.text).toContain('free-recent');
    expect(exported.text).not.toContain('free-old');
  });

  it('a Pro subscription keeps 14 days', async () => {
    await t.db.execute(sql`insert into tenant_subscriptions (tenant_id, plan_id, current_period_start, current_period_end)
      values ('default', 'Pro', now(), now() + interval '30 days')`);
    expect(ids((await api('/logs?userId=aged_user')).json)).toEqual(['free-old', 'free-recent']);
    await t.db.execute(sql`delete from tenant_subscriptions where tenant_id = 'default'`);
  });

  it('the purge deletes what is past retention and keeps what is inside it', async () => {
    await insertAged(t, 'admin', { 'admin-ancient': 400 });
    const deleted = await purgeExpiredLogs(t.db, { edition: 'cloud', auditLogRetentionDays: undefined }, 1);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await remaining(t, 'default')).toEqual(['free-recent']);
    expect(await remaining(t, 'admin'), "the admin tenant's plan keeps its log").toEqual(['admin-ancient']);
  });
});

describe('OSS: no plan', () => {
  it('keeps entries forever by default', async () => {
    const t = await createTestApp();
    try {
      await insertAged(t, 'default', { 'oss-ancient': 400 });
      expect(ids((await t.call('/api/logs?userId=aged_user')).json)).toEqual(['oss-ancient']);
      expect(await purgeExpiredLogs(t.db, { edition: 'oss', auditLogRetentionDays: undefined })).toBe(0);
      expect(await remaining(t, 'default')).toEqual(['oss-ancient']);
    } finally {
      await t.close();
    }
  });

  it('applies AUDIT_LOG_RETENTION_DAYS to reads and the purge', async () => {
    const t = await createTestApp({ AUDIT_LOG_RETENTION_DAYS: '30' });
    try {
      expect(t.config.auditLogRetentionDays).toBe(30);
      await insertAged(t, 'default', { 'oss-old': 31, 'oss-recent': 29 });
      expect(ids((await t.call('/api/logs?userId=aged_user')).json)).toEqual(['oss-recent']);
      expect((await t.call('/api/logs/oss-old')).status).toBe(404);
      await purgeExpiredLogs(t.db, t.config);
      expect(await remaining(t, 'default')).toEqual(['oss-recent']);
    } finally {
      await t.close();
    }
  });
});
