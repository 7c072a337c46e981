import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, logs, organizations } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { applicationListQuery } from '../src/services/applications.ts';
import { logListQuery } from '../src/services/logs.ts';
import { organizationListQuery } from '../src/services/organizations.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { planAsTenant } from './support/plans.ts';

/**
 * The hot lists' plans as the tenant role (issue 38): the audit log (10M rows in the bench) by page, user, application
 * and key, and the applications list, each served by its index in order — never a scan of the tenant's rows and a
 * sort. The users' plans are in users-scale.test.ts. A policy or query change that loses an index fails here.
 */
let t: TestApp;
const tenant = () => new TenantDb(t.db, DEFAULT_TENANT_ID);
beforeAll(async () => {
  t = await createTestApp();
  await t.db.execute(sql`
    insert into logs (tenant_id, id, key, user_id, application_id, payload, created_at)
    select ${DEFAULT_TENANT_ID}, 'plan' || i, case when i % 3 = 0 then 'Interaction.SignIn.Submit' else 'Admin.User.Updated' end,
           'user' || (i % 50), 'app' || (i % 7), '{"result":"Success"}'::jsonb, now() - i * interval '1 second'
    from generate_series(1, 3000) i`);
  await t.db.execute(sql`analyze logs`);
  await t.db.execute(sql`analyze applications`);
});
afterAll(() => t.close());

/** The first page of a list, as listPage sends it (TenantDb adds the tenant). */
function firstPage(table: PgTable & { tenantId: PgColumn }, list: { where?: SQL | undefined; orderBy: SQL[] }) {
  return t.db
    .select()
    .from(table)
    .where(tenant().scope(table, list.where))
    .orderBy(...list.orderBy)
    .limit(20);
}

describe('plans of the hot lists under row-level security', () => {
  it.each([
    ['the audit log', {}, 'logs_created_at'],
    ["a user's entries", { userId: 'user7' }, 'logs_user'],
    ["an application's entries", { applicationId: 'app3' }, 'logs_application'],
    ['the entries of a key', { logKey: 'Interaction.SignIn.Submit' }, 'logs_key'],
  ])('reads %s from its index in order', async (_name, filters, index) => {
    const text = await planAsTenant(tenant(), firstPage(logs, logListQuery(filters)));
    expect(text).toContain(index);
    expect(text, 'in index order, not sorted').not.toMatch(/\bSort\b/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it("fetches an organization keyword's matches by primary key, found through the trigram indexes", async () => {
    await t.db.execute(sql`
      insert into organizations (tenant_id, id, name)
      select ${DEFAULT_TENANT_ID}, 'planorg' || i, 'Plan organization ' || i from generate_series(1, 500) i`);
    await t.db.execute(sql`analyze organizations`);
    const list = await organizationListQuery(tenant(), { q: 'organization 437' });
    const text = await planAsTenant(tenant(), firstPage(organizations, list));
    expect(text, 'the tenant and the ids are both index conditions').toMatch(
      /Index (Only )?Scan using organizations_pk[^\n]*\n\s+Index Cond: [^\n]*tenant_id[^\n]* AND [^\n]*id\)?(::text)? = ANY/,
    );
    // The function's statement, as the owner it runs as.
    const owner = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain select o.id from organizations o where o.tenant_id = ${DEFAULT_TENANT_ID} and (o.id ilike '%on 437%' or o.name ilike '%on 437%') limit 10001`,
      )) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(owner).toContain('organizations_name_trgm');
  });

  it('reads the applications list from its index in order', async () => {
    const text = await planAsTenant(tenant(), firstPage(applications, applicationListQuery(tenant(), {})));
    expect(text).toContain('applications_created_at');
    expect(text).not.toMatch(/\bSort\b/);
  });
});
