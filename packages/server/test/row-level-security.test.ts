import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { TenantDbs } from '../src/db/tenant-db.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Tenant isolation by the database (issue 23, migration 0019): every table with a tenant_id column has row-level
 * security, and the role the data layer switches to for a tenant's statements sees and writes that tenant's rows only,
 * whatever the statement says. Tried here with raw SQL on every tenant table, from the wrong tenant.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Something of the default tenant in tables the seed leaves empty.
  await t.call('/api/users', { method: 'POST', body: { username: 'rls_user', primaryEmail: 'rls@example.com' } });
  await t.call('/api/organizations', { method: 'POST', body: { name: 'RLS org' } });
});
afterAll(() => t.close());

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (db: Database, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as Rows).rows;

async function tenantTables(): Promise<string[]> {
  const rows = await rowsOf(
    t.db,
    sql`select c.table_name as name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
        order by 1`,
  );
  return rows.map((row) => String(row.name));
}

/** Runs `query` as the tenant role with `tenantId` named (or none), in a transaction that is rolled back. */
async function asTenant<T>(tenantId: string | undefined, work: (db: Database) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await t.db
    .transaction(async (tx) => {
      const db = tx as unknown as Database;
      await db.execute(sql`select set_config('role', 'gatehouse_tenant', true)`);
      if (tenantId !== undefined) await db.execute(sql`select set_config('gatehouse.tenant_id', ${tenantId}, true)`);
      result = await work(db);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return result as T;
}
class RolledBack extends Error {}

const countOf = async (db: Database, table: string, tenantId?: string) => {
  const where = tenantId === undefined ? sql`` : sql` where tenant_id = ${tenantId}`;
  const [row] = await rowsOf(db, sql`select count(*)::int as n from ${sql.identifier(table)}${where}`);
  return Number(row?.n ?? 0);
};

describe('row-level security', () => {
  it('is on for every tenant table', async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThan(30);
    const unprotected = await rowsOf(
      t.db,
      sql`select relname from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace
          and relname in (${sql.join(
            tables.map((table) => sql`${table}`),
            sql`, `,
          )}) and not relrowsecurity`,
    );
    expect(unprotected).toEqual([]);
  });

  it('shows a tenant its own rows only, on every tenant table, whatever the statement asks', async () => {
    const tables = await tenantTables();
    let owned = 0;
    for (const table of tables) {
      const defaultRows = await countOf(t.db, table, DEFAULT_TENANT_ID);
      owned += defaultRows;
      // From the admin tenant: the default tenant's rows are not there, even asked for by tenant_id (except plans,
      // which the control plane reads for every tenant: the one named exception of the migration).
      const fromAdmin = await asTenant(ADMIN_TENANT_ID, (db) => countOf(db, table, DEFAULT_TENANT_ID));
      expect(fromAdmin, table).toBe(table === 'tenant_subscriptions' ? defaultRows : 0);
      // Without a tenant named: nothing at all.
      expect(await asTenant(undefined, (db) => countOf(db, table)), `${table} without a tenant`).toBe(0);
      // The tenant itself sees all of its rows (and only those).
      expect(await asTenant(DEFAULT_TENANT_ID, (db) => countOf(db, table)), `${table} as its tenant`).toBe(defaultRows);
    }
    expect(owned, 'the default tenant has rows to protect').toBeGreaterThan(10);
  });

  it('refuses writing or moving a row into another tenant, and changes nothing of another tenant', async () => {
    await asTenant(DEFAULT_TENANT_ID, async (db) => {
      await expect(
        db.execute(sql`insert into roles (tenant_id, id, name, description, type)
                       values (${ADMIN_TENANT_ID}, 'rls-role', 'x', 'x', 'User')`),
      ).rejects.toThrow();
    });
    const before = await countOf(t.db, 'roles', ADMIN_TENANT_ID);
    const changed = await asTenant(DEFAULT_TENANT_ID, async (db) => {
      const updated = await rowsOf(
        db,
        sql`update roles set description = 'taken' where tenant_id = ${ADMIN_TENANT_ID} returning id`,
      );
      const deleted = await rowsOf(db, sql`delete from roles where tenant_id = ${ADMIN_TENANT_ID} returning id`);
      return updated.length + deleted.length;
    });
    expect(changed).toBe(0);
    expect(await countOf(t.db, 'roles', ADMIN_TENANT_ID)).toBe(before);
    await asTenant(DEFAULT_TENANT_ID, async (db) => {
      await expect(
        db.execute(sql`update roles set tenant_id = ${ADMIN_TENANT_ID} where tenant_id = ${DEFAULT_TENANT_ID}`),
      ).rejects.toThrow();
    });
  });

  it('lends one connection that is the tenant already for a read of several statements (no transaction on PostgreSQL)', async () => {
    const tenant = new TenantDbs(t.db).of(DEFAULT_TENANT_ID);
    const seen = await tenant.onOneConnection(async (one) => {
      const first = await one.asTenant((db) =>
        rowsOf(
          db,
          sql`select current_user as role, current_setting('gatehouse.tenant_id') as tenant, txid_current() as xact, pg_backend_pid() as pid`,
        ),
      );
      const second = await one.asTenant((db) =>
        rowsOf(db, sql`select txid_current() as xact, pg_backend_pid() as pid`),
      );
      return { first: first[0], second: second[0] };
    });
    expect(seen.first).toMatchObject({ role: 'gatehouse_tenant', tenant: DEFAULT_TENANT_ID });
    expect(seen.second?.pid, 'one connection').toBe(seen.first?.pid);
    // Autocommit (each statement its own transaction): the connection, or PGlite's one session, is the tenant already.
    expect(seen.second?.xact).not.toBe(seen.first?.xact);
  });

  it("keeps the shared failure counters from the tenant role (they name addresses and other tenants' clients)", async () => {
    await t.db.execute(sql`insert into failure_windows (key, failures, reset_at) values ('rls-probe', 1, now())`);
    const denied = { message: expect.stringMatching(/permission denied/) };
    await asTenant(DEFAULT_TENANT_ID, async (db) => {
      await expect(db.execute(sql`select key from failure_windows`)).rejects.toMatchObject({ cause: denied });
    });
    await asTenant(DEFAULT_TENANT_ID, async (db) => {
      await expect(
        db.execute(sql`insert into failure_windows (key, failures, reset_at) values ('x', 1, now())`),
      ).rejects.toMatchObject({ cause: denied });
    });
  });

  it('holds for the per-tenant modules: TenantDbs statements run as the tenant role, seeing their tenant only', async () => {
    // What the OIDC provider, the sign-in pages and the workers get instead of the raw database.
    const tenant = new TenantDbs(t.db).of(DEFAULT_TENANT_ID);
    const [who] = await tenant.asTenant((db) =>
      rowsOf(db, sql`select current_user as role, current_setting('gatehouse.tenant_id') as tenant`),
    );
    expect(who).toEqual({ role: 'gatehouse_tenant', tenant: DEFAULT_TENANT_ID });
    for (const table of await tenantTables()) {
      const own = await countOf(t.db, table, DEFAULT_TENANT_ID);
      // No tenant condition in the statement: the policy alone decides.
      expect(await tenant.asTenant((db) => countOf(db, table)), `${table} through TenantDbs`).toBe(own);
    }
    expect(await countOf(t.db, 'roles', ADMIN_TENANT_ID), 'the admin tenant has rows to hide').toBeGreaterThan(0);
  });

  it('keeps each tenant on its own when connections pass from one tenant to another, and the owner the owner', async () => {
    // On PostgreSQL the tenant's statements run on a pool of connections that are the tenant role for their life and
    // are named for a tenant when they last served another (db/client.ts); PGlite's one session likewise, behind a gate.
    const tenants = new TenantDbs(t.db);
    const who = (tenantId: string) =>
      tenants
        .of(tenantId)
        .asTenant((db) =>
          rowsOf(db, sql`select current_user as role, current_setting('gatehouse.tenant_id', true) as tenant`),
        );
    const order = [DEFAULT_TENANT_ID, ADMIN_TENANT_ID, DEFAULT_TENANT_ID, ADMIN_TENANT_ID, ADMIN_TENANT_ID];
    const ownerRole = async () =>
      rowsOf(t.db, sql`select current_user as role, current_setting('gatehouse.tenant_id', true) as tenant`);
    // Tenants' statements, failing work and the owner's statements all at once, interleaved.
    const failing = (tenantId: string) =>
      tenants
        .of(tenantId)
        .asTenant(async (db) => {
          await db.execute(sql`select 1`);
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
          return undefined;
        });
    const answers = await Promise.all(
      [...order, 'owner', ...order, 'owner'].map(async (tenantId, index) => {
        if (index % 3 === 1 && tenantId !== 'owner') await failing(tenantId);
        return { tenantId, rows: tenantId === 'owner' ? await ownerRole() : await who(tenantId) };
      }),
    );
    for (const { tenantId, rows } of answers) {
      if (tenantId === 'owner') expect(rows[0]?.role, 'the owner').not.toBe('gatehouse_tenant');
      else expect(rows, tenantId).toEqual([{ role: 'gatehouse_tenant', tenant: tenantId }]);
    }
    // In a transaction too, and the rows it sees are its tenant's only.
    for (const tenantId of order) {
      const counted = await tenants.of(tenantId).transaction((tx) => tx.asTenant((db) => countOf(db, 'roles')));
      expect(counted, tenantId).toBe(await countOf(t.db, 'roles', tenantId));
    }
    // The raw database stays the owner's.
    const [owner] = await rowsOf(t.db, sql`select current_user as role`);
    expect(owner?.role).not.toBe('gatehouse_tenant');
  });

  it('prepares each statement once per tenant connection and plans every execution for its values (PostgreSQL)', async () => {
    if (t.database.kind !== 'postgres') return; // PGlite runs statements in its own process: nothing to prepare.
    const tenant = new TenantDbs(t.db).of(DEFAULT_TENANT_ID);
    const probe = (marker: number) =>
      sql`select ${marker}::int as marker, current_setting('plan_cache_mode') as mode, pg_backend_pid() as pid`;
    const seen = await tenant.onOneConnection(async (one) => {
      const first = await one.asTenant((db) => rowsOf(db, probe(1)));
      const again = await one.asTenant((db) => rowsOf(db, probe(2)));
      const prepared = await one.asTenant((db) =>
        rowsOf(
          db,
          sql`select statement from pg_prepared_statements
              where statement like '%as marker%' and statement not like '%pg_prepared_statements%'`,
        ),
      );
      return { first: first[0], again: again[0], prepared };
    });
    expect(seen.first).toMatchObject({ marker: 1, mode: 'force_custom_plan' });
    expect(seen.again, 'the same text, new values').toMatchObject({ marker: 2, pid: seen.first?.pid });
    expect(seen.prepared, 'prepared once on this connection').toHaveLength(1);
    // The owner's connections (throttles, workers across tenants) too; a migration's DDL is never prepared.
    const [owner] = await rowsOf(t.db, sql`select current_setting('plan_cache_mode') as mode`);
    expect(owner?.mode).toBe('force_custom_plan');
    const ddl = await rowsOf(
      t.db,
      sql`select statement from pg_prepared_statements where statement ilike 'create %' or statement ilike 'alter %'`,
    );
    expect(ddl).toEqual([]);
  });

  it('gatehouse_organization_search (migration 0026) answers the named tenant only, and only to the tenant role', async () => {
    const find = (db: Database, pattern: string) =>
      rowsOf(db, sql`select id from gatehouse_organization_search(${pattern}, 100) as found(id)`);
    const own = await asTenant(DEFAULT_TENANT_ID, (db) => find(db, '%RLS org%'));
    expect(own).toHaveLength(1);
    expect(await asTenant(ADMIN_TENANT_ID, (db) => find(db, '%RLS org%'))).toEqual([]);
    expect(await asTenant(undefined, (db) => find(db, '%'))).toEqual([]);
    const [grants] = await rowsOf(
      t.db,
      sql`select has_function_privilege('gatehouse_tenant', 'gatehouse_organization_search(text, integer)', 'execute') as tenant,
                 has_function_privilege('public', 'gatehouse_organization_search(text, integer)', 'execute') as anyone`,
    );
    expect(grants).toEqual({ tenant: true, anyone: false });
  });

  describe('gatehouse_user_search, the one reviewed path around the policy (migration 0024)', () => {
    const search = (db: Database, field: string, op: string, terms: string[]) =>
      rowsOf(
        db,
        sql`select id from gatehouse_user_search(${field}, ${op}, ${sql.param(terms)}::text[], 100) as found(id)`,
      );

    it("answers the named tenant's matching user ids, and nothing to another tenant or without one", async () => {
      const [own] = await rowsOf(
        t.db,
        sql`select id from users where tenant_id = ${DEFAULT_TENANT_ID} and username = 'rls_user'`,
      );
      expect(await asTenant(DEFAULT_TENANT_ID, (db) => search(db, 'username', 'ilike', ['%RLS_us%']))).toEqual([own]);
      expect(
        await asTenant(DEFAULT_TENANT_ID, (db) => search(db, 'primaryEmail', 'equals_lower', ['rls@example.com'])),
      ).toEqual([own]);
      expect(await asTenant(ADMIN_TENANT_ID, (db) => search(db, 'username', 'ilike', ['%rls_us%']))).toEqual([]);
      expect(await asTenant(ADMIN_TENANT_ID, (db) => search(db, 'id', 'equals', [String(own?.id)]))).toEqual([]);
      expect(await asTenant(undefined, (db) => search(db, 'username', 'ilike', ['%']))).toEqual([]);
    });

    it('reads only the five fields and four operators it names; a crafted name is refused, not run', async () => {
      for (const [field, op] of [
        ['password_encrypted', 'ilike'],
        ['tenant_id', 'equals'],
        ['username; delete from users', 'ilike'],
        ['name', 'equals_lower'],
        ['name', 'similar'],
      ] as const) {
        await expect(
          asTenant(DEFAULT_TENANT_ID, (db) => search(db, field, op, ['%'])),
          `${field} ${op}`,
        ).rejects.toThrow();
      }
      expect(await countOf(t.db, 'users', DEFAULT_TENANT_ID)).toBeGreaterThan(0);
    });

    it('is not for anyone else to call', async () => {
      const [grants] = await rowsOf(
        t.db,
        sql`select has_function_privilege('gatehouse_tenant', 'gatehouse_user_search(text, text, text[], integer)', 'execute') as tenant,
                   has_function_privilege('public', 'gatehouse_user_search(text, text, text[], integer)', 'execute') as anyone`,
      );
      expect(grants).toEqual({ tenant: true, anyone: false });
    });
  });
});
