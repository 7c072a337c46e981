import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  basicPlans,
  DEFAULT_TENANT_ID,
  developmentPlanQuota,
  freePlanQuota,
  offeredPlanIds,
  skuSchema,
  subscriptionUsageSchema,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerUrl, managementResource } from '../src/auth/issuers.ts';
import type { Database } from '../src/db/client.ts';
import { seedSkus } from '../src/db/seed.ts';
import { dailyActiveUsers, skus, tenantSubscriptions, tokenUsage } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { calendarMonth, periodKey, TokenUsageCounter } from '../src/services/subscriptions.ts';
import { type CloudAccount, call, createCloudAccount, tenantToken } from './support/cloud-accounts.ts';
import { startTestHttpServer } from './support/http-server.ts';

/** Plans (SKUs), subscriptions and subscription usage over the cloud API, with real tokens (spec §3, §7, §9). */

let base: string;
let db: Database;
let close: () => Promise<void>;
let dataDir: string;
let alice: CloudAccount;
let bob: CloudAccount;
const production = { id: '', token: '' };
let developmentId = '';

const cloud = (account: CloudAccount, path: string) => call(base, `/api${path}`, account.cloud);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-subscriptions-'));
  const server = await startTestHttpServer({ EDITION: 'cloud', DATA_DIR: dataDir });
  ({ base, close } = server);
  db = server.database.db;
  alice = await createCloudAccount(db, base, 'alice');
  bob = await createCloudAccount(db, base, 'bob');
  const created = await call(base, '/api/tenants', alice.cloud, {
    method: 'POST',
    body: { name: 'Shop', tag: 'production' },
  });
  production.id = created.json.id;
  production.token = await tenantToken(base, alice, production.id);
  developmentId = (await call(base, '/api/tenants', alice.cloud, { method: 'POST', body: { name: 'Dev' } })).json.id;
}, 60_000);
afterAll(async () => {
  await close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('SKUs', () => {
  it('lists the seeded plans to any signed-in account, 401 without a cloud token', async () => {
    expect((await call(base, '/api/skus', undefined)).status).toBe(401);
    const list = await cloud(bob, '/skus?type=Basic');
    expect(list.status).toBe(200);
    expect(list.json.map((sku: { id: string }) => sku.id).sort()).toEqual(basicPlans.map((plan) => plan.id).sort());
    for (const sku of list.json) expect(skuSchema.parse(sku)).toEqual(sku);
    expect(list.json.find((sku: { id: string }) => sku.id === 'Free')).toMatchObject({
      name: 'Free',
      type: 'Basic',
      unitPrice: 0,
      quota: freePlanQuota,
      createdAt: expect.any(Number),
    });
    expect(list.json.find((sku: { id: string }) => sku.id === 'Pro202411')).toMatchObject({
      name: 'Pro',
      unitPrice: 1600,
    });
    expect((await cloud(bob, '/skus?type=AddOn')).json).toEqual([]);
    expect((await cloud(bob, '/skus?type=Other')).status).toBe(400);
  });

  it('seeding again updates a changed row and leaves the others', async () => {
    await db.update(skus).set({ unitPrice: 999, quota: {} }).where(eq(skus.id, 'Free'));
    const [pro] = await db.select().from(skus).where(eq(skus.id, 'Pro202411'));
    await seedSkus(db);
    const [free] = await db.select().from(skus).where(eq(skus.id, 'Free'));
    expect(free).toMatchObject({ unitPrice: 0, quota: freePlanQuota });
    const [proAfter] = await db.select().from(skus).where(eq(skus.id, 'Pro202411'));
    expect(proAfter?.updatedAt).toEqual(pro?.updatedAt);
  });

  it('offers Free and Pro202411 to a production tenant, nothing to a development one; members only', async () => {
    const offered = await cloud(alice, `/tenants/${production.id}/available-skus?type=Basic`);
    expect(offered.json.map((sku: { id: string }) => sku.id)).toEqual([...offeredPlanIds]);
    expect((await cloud(alice, `/tenants/${developmentId}/available-skus`)).json).toEqual([]);
    expect((await cloud(bob, `/tenants/${production.id}/available-skus`)).status).toBe(404);
    expect((await cloud(alice, '/tenants/nosuchtenant/available-skus')).status).toBe(404);
  });
});

describe('subscription', () => {
  it('is written at tenant creation: Free for production, Development for development, this UTC month', async () => {
    const month = calendarMonth();
    const own = await cloud(alice, `/tenants/${production.id}/subscription`);
    expect(own.status).toBe(200);
    expect(own.json).toEqual({
      status: 'active',
      planId: 'Free',
      currentPeriodStart: month.start.getTime(),
      currentPeriodEnd: month.end.getTime(),
      isEnterprisePlan: false,
    });
    expect((await cloud(alice, `/tenants/${developmentId}/subscription`)).json.planId).toBe('Development');
    const rows = await db.select().from(tenantSubscriptions).where(eq(tenantSubscriptions.tenantId, production.id));
    expect(rows).toHaveLength(1);
    expect((await cloud(bob, `/tenants/${production.id}/subscription`)).status).toBe(404);
    expect((await call(base, `/api/tenants/${production.id}/subscription`, undefined)).status).toBe(401);
  });

  it('drives the planId of the tenant list', async () => {
    await db
      .update(tenantSubscriptions)
      .set({ planId: 'Pro202411' })
      .where(eq(tenantSubscriptions.tenantId, developmentId));
    const list = (await cloud(alice, '/tenants')).json;
    expect(list.find((tenant: { id: string }) => tenant.id === developmentId).planId).toBe('Pro202411');
    expect(list.find((tenant: { id: string }) => tenant.id === production.id).planId).toBe('Free');
    await db
      .update(tenantSubscriptions)
      .set({ planId: 'Development' })
      .where(eq(tenantSubscriptions.tenantId, developmentId));
  });
});

describe('subscription usage', () => {
  it('counts from the data, and moves after creating an application, a scope and a token', async () => {
    const path = `/tenants/${production.id}/subscription-usage`;
    expect((await cloud(bob, path)).status).toBe(404);
    const before = await cloud(alice, path);
    expect(before.status).toBe(200);
    expect(subscriptionUsageSchema.parse(before.json)).toEqual(before.json);
    expect(before.json.quota).toEqual(freePlanQuota);
    expect(before.json.basicQuota).toEqual(freePlanQuota);
    expect(before.json.usage).toMatchObject({
      applicationsLimit: 0,
      machineToMachineLimit: 0,
      resourcesLimit: 0,
      machineToMachineRolesLimit: 0,
      tenantMembersLimit: 1,
      mauLimit: 0,
      tokenLimit: 0,
      mfaEnabled: false,
    });
    // The seeded management API role holds the management API's one scope.
    expect(before.json.roles).toEqual({ 'management-api-access': 1 });

    const api = (p: string, body: unknown) =>
      call(base, `/m/${production.id}/api${p}`, production.token, { method: 'POST', body });
    expect(
      (
        await api('/applications', {
          name: 'Web',
          type: 'SPA',
          oidcClientMetadata: { redirectUris: ['https://a.example/cb'] },
        })
      ).status,
    ).toBe(200);
    const resource = await api('/resources', { name: 'Orders', indicator: 'https://orders.example' });
    expect((await api(`/resources/${resource.json.id}/scopes`, { name: 'read' })).status).toBe(201);

    // A machine app of the tenant takes a client-credentials token: one token counted.
    const app = await createManagementMachineApp(new TenantDb(db, production.id), { type: 'system', id: 'test' }, 'CI');
    const token = await fetch(`${issuerUrl(base, production.id)}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: managementResource(production.id),
        scope: 'all',
      }),
    });
    expect(token.status, await token.clone().text()).toBe(200);
    // Counting runs after the response; wait for the row.
    const period = periodKey(calendarMonth().start);
    await expect
      .poll(async () => {
        const [row] = await db.select().from(tokenUsage).where(eq(tokenUsage.tenantId, production.id));
        return row && { period: row.period, count: row.count };
      })
      .toEqual({ period, count: 1 });

    // A user active today in the tenant (what a sign-in records) counts towards MAU.
    await new TenantDb(db, production.id).insertIfAbsent(dailyActiveUsers, {
      day: new Date().toISOString().slice(0, 10),
      userId: 'someuser0001',
    });

    const after = (await cloud(alice, path)).json;
    expect(after.usage).toMatchObject({
      applicationsLimit: 1,
      machineToMachineLimit: 1,
      resourcesLimit: 1,
      scopesPerResourceLimit: 1,
      tokenLimit: 1,
      mauLimit: 1,
    });
    expect(after.resources).toEqual({ [resource.json.id]: 1, 'management-api': 1 });
  });

  it('gives a development tenant the Development quota', async () => {
    const usage = (await cloud(alice, `/tenants/${developmentId}/subscription-usage`)).json;
    expect(usage.quota).toEqual(developmentPlanQuota);
  });
});

describe('TokenUsageCounter', () => {
  it('writes the tokens counted in memory as one upsert per tenant, adding to what is there', async () => {
    const tenantId = DEFAULT_TENANT_ID;
    const tenants = new TenantDbs(db);
    const counter = new TokenUsageCounter(tenants);
    const countNow = async () => {
      const [row] = await db.select().from(tokenUsage).where(eq(tokenUsage.tenantId, tenantId));
      return row?.count ?? 0;
    };
    const before = await countNow();
    for (let i = 0; i < 5; i++) counter.count(tenantId);
    expect(await countNow(), 'nothing written yet').toBe(before);
    await counter.flush();
    expect(await countNow()).toBe(before + 5);
    counter.count(tenantId);
    // Written by its timer too, without a flush.
    await expect.poll(countNow, { timeout: 5_000 }).toBe(before + 6);
  });
});
