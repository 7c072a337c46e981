import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { countTenantUsers, USER_COUNT_CAP } from '../src/services/user-search.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/** Bulk rows (as an import or the seed tool writes them) keep the counter exact; big searches are capped. */

let t: TestApp;
const bulk = USER_COUNT_CAP + 50;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.execute(sql`
    insert into users (tenant_id, id, username, primary_email, name, created_at)
    select ${DEFAULT_TENANT_ID}, 'bulk' || lpad(i::text, 8, '0'), 'bulk_user_' || i, 'bulk' || i || '@load.example',
           'Bulk Person ' || i, now() - i * interval '1 second'
    from generate_series(1, ${bulk}) i`);
});
afterAll(() => t.close());

const total = (response: { headers: Headers }) => Number(response.headers.get('Total-Number'));
const capped = (response: { headers: Headers }) => response.headers.get('Total-Number-Is-Capped');

describe('user totals at scale', () => {
  it('counts every user exactly from the counter, however they were inserted', async () => {
    const tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
    const exact = await tenant.count(users);
    expect(exact).toBeGreaterThanOrEqual(bulk);
    const response = await t.call('/api/users?page_size=5');
    expect(total(response)).toBe(exact);
    expect(capped(response)).toBeNull();
    expect((response.json as { username: string }[]).map((user) => user.username)).toEqual([
      'bulk_user_1',
      'bulk_user_2',
      'bulk_user_3',
      'bulk_user_4',
      'bulk_user_5',
    ]);
    const last = await t.call(`/api/users?page_size=100&page=${Math.ceil(exact / 100)}`);
    expect((last.json as unknown[]).length).toBe(exact % 100 || 100);
  });

  it('caps the total of a search matching more than 10,000 users and says so', async () => {
    const response = await t.call('/api/users?search=bulk_user_&page_size=3');
    expect(response.status).toBe(200);
    expect(total(response)).toBe(USER_COUNT_CAP);
    expect(capped(response)).toBe('true');
    expect((response.json as unknown[]).length).toBe(3);
    const exactBelowCap = await t.call('/api/users?search=bulk_user_99');
    expect(total(exactBelowCap), 'bulk_user_99, 990–999 and 9900–9999').toBe(111);
    expect(capped(exactBelowCap)).toBeNull();
  });

  it('keeps the counter right through bulk deletes and a deleted tenant', async () => {
    const tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
    await t.db.execute(sql`delete from users where tenant_id = ${DEFAULT_TENANT_ID} and username like 'bulk_user_1%'`);
    expect(await countTenantUsers(tenant)).toBe(await tenant.count(users));

    await t.db.insert(tenants).values({ id: 'scale-tenant', name: 'Scale' });
    const scratch = new TenantDb(t.db, 'scale-tenant');
    await t.db.execute(sql`
      insert into users (tenant_id, id, username) select 'scale-tenant', 's' || i, 's_' || i from generate_series(1, 30) i`);
    expect(await countTenantUsers(scratch)).toBe(30);
    await t.db.delete(tenants).where(eq(tenants.id, 'scale-tenant'));
    expect(await countTenantUsers(scratch), 'the cascade removed the users and their count').toBe(0);
  });

  it('serves substring search from the trigram indexes and the unfiltered page from the newest-first index', async () => {
    const plan = await t.db.transaction(async (tx) => {
      // Small test tables tempt the planner into sequential scans; this asks whether the indexes can serve at all.
      await tx.execute(sql`analyze users`);
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = async (query: ReturnType<typeof sql>) => {
        // node-postgres answers {rows}; PGlite's drizzle driver answers the rows too, under `rows`.
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
        const rows = result.rows;
        return rows.map((row) => Object.values(row)[0]).join('\n');
      };
      return {
        search: await explain(
          // Without the tenant condition: on 10,000 rows of one tenant its index is the cheaper way, at scale it is not.
          sql`select id from users where username ilike '%r_9876%' or name ilike '%son 9876%'`,
        ),
        page: await explain(
          sql`select id from users where tenant_id = ${DEFAULT_TENANT_ID} order by created_at desc, id desc limit 20`,
        ),
      };
    });
    expect(plan.search).toContain('users_username_trgm');
    expect(plan.search).toContain('users_name_trgm');
    expect(plan.page).toContain('users_created_at');
    expect(plan.page, 'read in index order, not sorted').not.toMatch(/Sort/);
  });
});
