import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_TENANT_ID,
  CHECKOUT_CALLBACK_PATH,
  downgradeBlockedDataSchema,
  freePlanQuota,
  MAX_FREE_TENANTS,
  proPlanQuota,
  type QuotaUsage,
  quotaKeys,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConsoleOrigin } from '../src/billing/checkout.ts';
import { downgradeBlockers, paidPeriod } from '../src/billing/payments.ts';
import {
  SANDBOX_SIGNATURE_HEADER,
  signPortalToken,
  signSandboxWebhook,
  verifyPortalToken,
  verifySandboxSignature,
} from '../src/billing/sandbox.ts';
import type { Database } from '../src/db/client.ts';
import { tenantRoleId } from '../src/db/seed.ts';
import {
  checkoutSessions,
  invoices,
  logs,
  organizationUserRoles,
  organizationUsers,
  tenants,
} from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createTestApp } from './support/app.ts';
import { type CloudAccount, call, createCloudAccount, type Json, tenantToken } from './support/cloud-accounts.ts';
import { startTestHttpServer } from './support/http-server.ts';

/**
 * Checkout, the sandbox payment provider, cancellation, invoices, the customer portal, the provider webhook and the
 * Free-tenant allowance (issue 9; spec §4 checkout and cancelling, §5 Free plan, §7), over the real HTTP server with
 * real console tokens.
 */

const SECRET = 'sandbox-webhook-secret-for-tests-0123456789';

let base: string;
let db: Database;
let close: () => Promise<void>;
let dataDir: string;
let alice: CloudAccount;
let bob: CloudAccount;
let carol: CloudAccount;
let callback: string;
/** Alice's tenants: `shop` bought on Pro202411 through checkout, `free` a Free production tenant. */
const shop = { id: '' };
const free = { id: '' };
/** Alice's Free tenant where Bob is a collaborator. */
const team = { id: '' };

const cloud = (account: CloudAccount | undefined, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(base, `/api${path}`, account?.cloud, init);

/** A browser request to a sandbox page: no redirects followed. */
async function page(url: string, init: { method?: string; language?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { 'Accept-Language': init.language ?? 'en' },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function webhook(body: unknown, signature?: string) {
  const raw = JSON.stringify(body);
  const response = await fetch(`${base}/api/payment-webhooks/sandbox`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: signature ?? signSandboxWebhook(SECRET, raw),
    },
    body: raw,
  });
  return { status: response.status, text: await response.text() };
}

const checkout = (account: CloudAccount, body: Record<string, unknown>) =>
  cloud(account, '/checkout-session', { method: 'POST', body: { successCallbackUrl: callback, ...body } });

async function invoicesOf(tenantId: string) {
  return db.select().from(invoices).where(eq(invoices.tenantId, tenantId));
}

async function auditKeys(entityId: string): Promise<string[]> {
  const rows = await new TenantDb(db, ADMIN_TENANT_ID).findMany(logs, {});
  return rows
    .filter((row) => (row.payload as Json).entity?.id === entityId)
    .map((row) => row.key)
    .sort();
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-billing-'));
  const server = await startTestHttpServer({ EDITION: 'cloud', DATA_DIR: dataDir, PAYMENT_WEBHOOK_SECRET: SECRET });
  ({ base, close } = server);
  db = server.database.db;
  callback = `${base}/console${CHECKOUT_CALLBACK_PATH}?state=Ab12Cd`;
  alice = await createCloudAccount(db, base, 'alice');
  bob = await createCloudAccount(db, base, 'bob');
  carol = await createCloudAccount(db, base, 'carol');
  const created = await cloud(alice, '/tenants', { method: 'POST', body: { name: 'Free one', tag: 'production' } });
  expect(created.json).toMatchObject({ planId: 'Free' });
  free.id = created.json.id;
  // Bob is a collaborator of another Free tenant (an invitation would pass Free's one-member quota).
  team.id = (await cloud(alice, '/tenants', { method: 'POST', body: { name: 'Team', tag: 'production' } })).json.id;
  const admin = new TenantDb(db, ADMIN_TENANT_ID);
  await admin.insert(organizationUsers, { organizationId: tenantOrganizationId(team.id), userId: bob.id });
  await admin.insert(organizationUserRoles, {
    organizationId: tenantOrganizationId(team.id),
    userId: bob.id,
    organizationRoleId: tenantRoleId('collaborator'),
  });
  expect((await cloud(bob, '/tenants')).json).toEqual([expect.objectContaining({ id: team.id, role: 'collaborator' })]);
}, 60_000);
afterAll(async () => {
  await close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('pure rules', () => {
  it('a paid period runs one month, clamped at the end of a short month', () => {
    const from = new Date('2026-01-31T10:00:00Z');
    expect(paidPeriod(from).end.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(paidPeriod(new Date('2026-03-15T00:00:00Z')).end.toISOString()).toBe('2026-04-15T00:00:00.000Z');
  });

  it('downgrade blockers name every counted quota over the target plan, never MAU or tokens', () => {
    const usage = Object.fromEntries(
      quotaKeys.map((key) => [key, typeof freePlanQuota[key] === 'boolean' ? false : 0]),
    ) as QuotaUsage;
    expect(downgradeBlockers(freePlanQuota, usage)).toEqual({});
    Object.assign(usage, { applicationsLimit: 4, hooksLimit: 1, organizationsLimit: 2, mauLimit: 10 ** 6 });
    expect(downgradeBlockers(freePlanQuota, usage)).toEqual({
      applicationsLimit: { limit: 3, usage: 4 },
      organizationsLimit: { limit: 0, usage: 2 },
    });
    usage.mfaEnabled = true;
    expect(downgradeBlockers(freePlanQuota, usage).mfaEnabled).toEqual({ limit: false, usage: 1 });
    expect(downgradeBlockers(proPlanQuota, usage)).toEqual({});
  });

  it('sandbox webhook signatures: right secret and body within five minutes only', () => {
    const body = '{"type":"checkout.completed","sessionId":"x"}';
    const now = new Date();
    expect(verifySandboxSignature(SECRET, body, signSandboxWebhook(SECRET, body, now), now)).toBe(true);
    expect(verifySandboxSignature(SECRET, `${body} `, signSandboxWebhook(SECRET, body, now), now)).toBe(false);
    expect(verifySandboxSignature(SECRET, body, signSandboxWebhook(`${SECRET}x`, body, now), now)).toBe(false);
    const old = new Date(now.getTime() - 6 * 60_000);
    expect(verifySandboxSignature(SECRET, body, signSandboxWebhook(SECRET, body, old), now)).toBe(false);
    for (const header of [null, '', 't=1', 'v1=00', 't=x,v1=zz'])
      expect(verifySandboxSignature(SECRET, body, header, now)).toBe(false);
  });

  it('portal tokens: signed, expiring, tamper-evident', () => {
    const token = signPortalToken(SECRET, { tenantId: 't1', callbackUrl: 'http://c/x', expiresAt: Date.now() + 1000 });
    expect(verifyPortalToken(SECRET, token)).toMatchObject({ tenantId: 't1', callbackUrl: 'http://c/x' });
    expect(verifyPortalToken(`${SECRET}x`, token)).toBeUndefined();
    expect(verifyPortalToken(SECRET, token, Date.now() + 2000)).toBeUndefined();
    const [payload = '', signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify(['t2', 'http://c/x', Date.now() + 1000])).toString('base64url');
    expect(verifyPortalToken(SECRET, `${forged}.${signature}`)).toBeUndefined();
    expect(verifyPortalToken(SECRET, `${payload}.`)).toBeUndefined();
    expect(verifyPortalToken(SECRET, 'garbage')).toBeUndefined();
  });

  it('callback URLs must be on the console origin', () => {
    expect(isConsoleOrigin('http://localhost:3001/console/x?state=1', 'http://localhost:3001')).toBe(true);
    expect(isConsoleOrigin('http://localhost:3002/console/x', 'http://localhost:3001')).toBe(false);
    expect(isConsoleOrigin('https://localhost:3001/console/x', 'http://localhost:3001')).toBe(false);
    expect(isConsoleOrigin('not a url', 'http://localhost:3001')).toBe(false);
  });
});

describe('checkout of a new Production tenant', () => {
  it('creates the tenant on Pro202411 with one paid invoice once the sandbox page is confirmed', async () => {
    expect((await cloud(alice, '/payment-provider')).json).toEqual({ id: 'sandbox', name: 'Sandbox' });
    const created = await checkout(alice, {
      skuId: 'Pro202411',
      tenantName: 'Shop',
      tenantTag: 'production',
      tenantRegionName: 'US',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const { redirectUri, sessionId } = created.json;
    expect(sessionId).toMatch(/^[a-z0-9]{21}$/);
    expect(redirectUri).toBe(`${base}/sandbox-payments/checkout/${sessionId}`);
    expect((await cloud(alice, `/checkout-session/${sessionId}`)).json).toEqual({
      id: sessionId,
      status: 'open',
      tenantId: null,
      skuId: 'Pro202411',
      createdAt: expect.any(Number),
    });

    const shown = await page(redirectUri, { language: 'de-DE,de;q=0.9' });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Testmodus');
    expect(shown.text).toContain('Shop (neu)');
    expect(shown.text).toMatch(/16,00\s\$/);
    expect(shown.text).toContain(`action="/sandbox-payments/checkout/${sessionId}/confirm"`);
    expect(shown.text).toContain(`action="/sandbox-payments/checkout/${sessionId}/cancel"`);
    expect(shown.text).not.toContain('<script');
    expect(shown.text).not.toContain('style=');
    expect(shown.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(shown.headers.get('Cache-Control')).toBe('no-store');
    const css = await page(`${base}/sandbox-payments/assets/sandbox.css`);
    expect(css.headers.get('Content-Type')).toContain('text/css');
    expect((await page(redirectUri, { language: 'ja' })).text).toContain('テストモード');

    const paid = await page(`${redirectUri}/confirm`, { method: 'POST' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('Location')).toBe(callback);

    const session = (await cloud(alice, `/checkout-session/${sessionId}`)).json;
    expect(session).toMatchObject({ status: 'complete', tenantId: expect.any(String) });
    shop.id = session.tenantId;
    const tenant = (await cloud(alice, '/tenants')).json.find((row: Json) => row.id === shop.id);
    expect(tenant).toMatchObject({
      name: 'Shop',
      tag: 'production',
      regionName: 'US',
      planId: 'Pro202411',
      role: 'admin',
    });
    const subscription = (await cloud(alice, `/tenants/${shop.id}/subscription`)).json;
    expect(subscription).toMatchObject({ planId: 'Pro202411', status: 'active' });
    const days = (subscription.currentPeriodEnd - subscription.currentPeriodStart) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    const list = (await cloud(alice, `/tenants/${shop.id}/invoices`)).json;
    expect(list).toEqual([
      expect.objectContaining({ status: 'paid', planId: 'Pro202411', amountDue: 1600, amountPaid: 1600 }),
    ]);
    expect(await auditKeys(shop.id)).toEqual(['Admin.Subscription.Updated', 'Admin.Tenant.Created']);
    expect(await auditKeys(list[0].id)).toEqual(['Admin.Invoice.Created']);
    expect(await auditKeys(sessionId)).toEqual(['Admin.CheckoutSession.Created']);

    // Replays: a second form POST and a webhook of the same completion change nothing.
    const again = await page(`${redirectUri}/confirm`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('no longer open');
    expect((await webhook({ type: 'checkout.completed', sessionId })).status).toBe(204);
    expect(await invoicesOf(shop.id)).toHaveLength(1);
    expect((await cloud(alice, '/tenants')).json.filter((row: Json) => row.name === 'Shop')).toHaveLength(1);
  });

  it('two confirmations at once complete the checkout once', async () => {
    const { redirectUri } = (await checkout(alice, { skuId: 'Pro202411', tenantName: 'Twice' })).json;
    const both = await Promise.all([1, 2].map(() => page(`${redirectUri}/confirm`, { method: 'POST' })));
    expect(both.map((response) => response.status).sort()).toEqual([303, 409]);
    const created = (await cloud(alice, '/tenants')).json.filter((row: Json) => row.name === 'Twice');
    expect(created).toHaveLength(1);
    expect(await invoicesOf(created[0].id)).toHaveLength(1);
  });

  it('only the session owner reads it; unknown ids are 404 alike; 401 without a token', async () => {
    const created = await checkout(alice, { skuId: 'Pro202411', tenantName: 'Peek' });
    expect(created.status).toBe(201);
    expect((await cloud(carol, `/checkout-session/${created.json.sessionId}`)).status).toBe(404);
    expect((await cloud(alice, '/checkout-session/nope')).status).toBe(404);
    expect((await cloud(undefined, `/checkout-session/${created.json.sessionId}`)).status).toBe(401);
    expect((await cloud(undefined, '/checkout-session', { method: 'POST', body: {} })).status).toBe(401);
    expect((await cloud(undefined, '/payment-provider')).status).toBe(401);
    expect((await cloud(undefined, `/tenants/${shop.id}/invoices`)).status).toBe(401);
    expect((await cloud(undefined, `/tenants/${shop.id}/subscription`, { method: 'DELETE' })).status).toBe(401);
  });
});

describe('refused checkouts', () => {
  it('400 for a bad body, extra fields and a callback off the console origin', async () => {
    for (const body of [
      { successCallbackUrl: callback },
      { skuId: 'Pro202411', successCallbackUrl: callback, tenantName: 'X', coupon: 'FREE' },
      { skuId: 'Pro202411', successCallbackUrl: callback, tenantName: 'X', tenantId: free.id },
      { skuId: 'Pro202411', successCallbackUrl: 'not a url', tenantName: 'X' },
    ]) {
      const response = await cloud(alice, '/checkout-session', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    for (const url of ['https://evil.example/console/checkout-success-callback', 'http://127.0.0.1:1/x']) {
      const response = await checkout(alice, { skuId: 'Pro202411', tenantId: free.id, successCallbackUrl: url });
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('checkout.invalid_callback_url');
    }
  });

  it('422 for unknown, unoffered and Free plans, the current plan, and a new development tenant', async () => {
    const cases: Record<string, unknown>[] = [
      { skuId: 'Gold', tenantId: free.id },
      { skuId: 'Pro', tenantId: free.id },
      { skuId: 'Development', tenantId: free.id },
      { skuId: 'Admin', tenantName: 'A' },
      { skuId: 'Free', tenantId: free.id },
      { skuId: 'Free', tenantName: 'F', tenantTag: 'production' },
      { skuId: 'Pro202411', tenantId: shop.id },
      { skuId: 'Pro202411', tenantName: 'D', tenantTag: 'development' },
    ];
    for (const body of cases) {
      const response = await checkout(alice, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.json.code).toBe('subscription.sku_not_available');
      expect(response.json.message).toBe('The plan is not available for this tenant.');
    }
  });

  it("403 for a collaborator, 404 for another user's tenant, and nothing opened", async () => {
    const before = await db.select().from(checkoutSessions);
    const collaborator = await checkout(bob, { skuId: 'Pro202411', tenantId: team.id });
    expect(collaborator.status).toBe(403);
    expect((await checkout(carol, { skuId: 'Pro202411', tenantId: free.id })).status).toBe(404);
    expect(await db.select().from(checkoutSessions)).toHaveLength(before.length);
  });
});

describe('sessions that do not complete', () => {
  it('a canceled session returns to the callback and can no longer be paid', async () => {
    const { sessionId, redirectUri } = (await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).json;
    const canceled = await page(`${redirectUri}/cancel`, { method: 'POST' });
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get('Location')).toBe(callback);
    expect((await cloud(alice, `/checkout-session/${sessionId}`)).json.status).toBe('canceled');
    expect(await auditKeys(sessionId)).toEqual(['Admin.CheckoutSession.Created', 'Admin.CheckoutSession.Updated']);
    const late = await page(`${redirectUri}/confirm`, { method: 'POST', language: 'fr' });
    expect(late.status).toBe(409);
    expect(late.text).toContain('lang="fr"');
    expect((await page(redirectUri)).status).toBe(409);
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json.planId).toBe('Free');
    expect(await invoicesOf(free.id)).toHaveLength(0);
  });

  it('an expired session reads expired and its page changes nothing', async () => {
    const { sessionId, redirectUri } = (await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).json;
    await db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.id, sessionId));
    // A webhook for it arriving late applies nothing and stores it expired.
    expect((await webhook({ type: 'checkout.completed', sessionId })).status).toBe(204);
    expect((await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)))[0]?.status).toBe(
      'expired',
    );
    const late = await page(`${redirectUri}/confirm`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect(late.text).toContain('This checkout session is no longer open.');
    expect((await cloud(alice, `/checkout-session/${sessionId}`)).json.status).toBe('expired');
    // One that expires unread is stored expired when its owner polls it.
    const unread = (await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).json.sessionId;
    await db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.id, unread));
    expect((await cloud(alice, `/checkout-session/${unread}`)).json.status).toBe('expired');
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json.planId).toBe('Free');
    expect(await invoicesOf(free.id)).toHaveLength(0);
    expect((await page(`${base}/sandbox-payments/checkout/unknown-session-id`)).status).toBe(404);
  });
});

describe('payment webhooks', () => {
  it('refuses forged, stale and unsigned events and applies nothing', async () => {
    const { sessionId } = (await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).json;
    const event = { type: 'checkout.completed', sessionId };
    const raw = JSON.stringify(event);
    const forged = await webhook(event, signSandboxWebhook('another-secret-another-secret-12345', raw));
    expect(forged.status).toBe(400);
    const stale = await webhook(event, signSandboxWebhook(SECRET, raw, new Date(Date.now() - 10 * 60_000)));
    expect(stale.status).toBe(400);
    expect((await webhook(event, '')).status).toBe(400);
    const other = await fetch(`${base}/api/payment-webhooks/stripe`, { method: 'POST', body: raw });
    expect(other.status).toBe(404);
    expect((await webhook({ type: 'refund.created', sessionId })).status).toBe(400);
    expect((await cloud(alice, `/checkout-session/${sessionId}`)).json.status).toBe('open');
    expect(await invoicesOf(free.id)).toHaveLength(0);
  });

  it('a signed completion upgrades the existing tenant; a failed renewal makes it past due', async () => {
    const { sessionId } = (await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).json;
    expect((await webhook({ type: 'checkout.completed', sessionId })).status).toBe(204);
    expect((await cloud(alice, `/checkout-session/${sessionId}`)).json).toMatchObject({
      status: 'complete',
      tenantId: free.id,
    });
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json).toMatchObject({
      planId: 'Pro202411',
      status: 'active',
    });
    expect(await invoicesOf(free.id)).toHaveLength(1);
    // A same-plan checkout is now refused.
    expect((await checkout(alice, { skuId: 'Pro202411', tenantId: free.id })).status).toBe(422);

    // A renewal invoice the provider opened, then failed to charge.
    const start = new Date(Date.now() + 1000);
    await db.insert(invoices).values({
      tenantId: free.id,
      id: 'renewal-1',
      status: 'open',
      planId: 'Pro202411',
      amountDue: 1600,
      periodStart: start,
      periodEnd: paidPeriod(start).end,
      createdAt: start,
    });
    const failed = { type: 'invoice.payment_failed', tenantId: free.id, invoiceId: 'renewal-1' };
    expect((await webhook(failed)).status).toBe(204);
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json.status).toBe('past_due');
    const tenant = (await cloud(alice, '/tenants')).json.find((row: Json) => row.id === free.id);
    expect(tenant.openInvoices).toEqual([expect.objectContaining({ id: 'renewal-1', amountDue: 1600 })]);
    const listed = (await cloud(alice, `/tenants/${free.id}/invoices`)).json;
    expect(listed.map((row: Json) => row.id)[0]).toBe('renewal-1');
    expect(listed).toHaveLength(2);
  });
});

describe('customer portal', () => {
  it('links to the sandbox portal, where an open invoice is paid and the subscription is active again', async () => {
    const path = `/tenants/${free.id}/sandbox-customer-portal`;
    const portal = await cloud(alice, path, { method: 'POST', body: { callbackUrl: `${base}/console/billing` } });
    expect(portal.status).toBe(200);
    const url: string = portal.json.redirectUri;
    expect(url.startsWith(`${base}/sandbox-payments/portal/`)).toBe(true);
    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Past due');
    expect(shown.text).toContain(`href="${base}/console/billing"`);
    expect(shown.text).toContain('/invoices/renewal-1/pay');
    expect(shown.text).toContain('$16.00');

    const paid = await page(`${url}/invoices/renewal-1/pay`, { method: 'POST' });
    expect(paid.status).toBe(303);
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json.status).toBe('active');
    const [renewal] = (await invoicesOf(free.id)).filter((row) => row.id === 'renewal-1');
    expect(renewal).toMatchObject({ status: 'paid', amountPaid: 1600 });
    // The failed charge left it open (no change); paying it is one audited update.
    expect(await auditKeys('renewal-1')).toEqual(['Admin.Invoice.Updated']);

    // A token for one tenant does not reach another tenant's invoice; a tampered token is refused.
    const shopInvoice = (await invoicesOf(shop.id))[0]?.id ?? '';
    expect((await page(`${url}/invoices/${shopInvoice}/pay`, { method: 'POST' })).status).toBe(404);
    expect((await page(`${url.slice(0, -2)}xx`)).status).toBe(404);
  });

  it('simulates a failed renewal (the next period, open and past due); paying it makes the tenant active', async () => {
    const path = `/tenants/${free.id}/sandbox-customer-portal`;
    const url: string = (await cloud(alice, path, { method: 'POST', body: { callbackUrl: `${base}/console` } })).json
      .redirectUri;
    expect((await page(url)).text).toContain('Simulate a failed renewal');
    const before = (await cloud(alice, `/tenants/${free.id}/subscription`)).json;
    expect(before).toMatchObject({ planId: 'Pro202411', status: 'active' });

    expect((await page(`${url}/renewal-failure`, { method: 'POST' })).status).toBe(303);
    const tenant = (await cloud(alice, '/tenants')).json.find((row: Json) => row.id === free.id);
    expect(tenant.subscription.status).toBe('past_due');
    expect(tenant.openInvoices).toHaveLength(1);
    const [renewal] = tenant.openInvoices;
    expect(renewal).toMatchObject({ status: 'open', planId: 'Pro202411', amountDue: 1600, amountPaid: 0 });
    expect(renewal.periodStart).toBe(before.currentPeriodEnd);
    // One open renewal at a time: the page offers no second one, and a second POST opens nothing.
    expect((await page(url)).text).not.toContain('Simulate a failed renewal');
    expect((await page(`${url}/renewal-failure`, { method: 'POST' })).status).toBe(303);
    expect((await cloud(alice, '/tenants')).json.find((row: Json) => row.id === free.id).openInvoices).toHaveLength(1);
    // A second delivery of the provider's invoice.created event changes nothing.
    const replay = {
      type: 'invoice.created',
      tenantId: free.id,
      invoiceId: renewal.id,
      planId: 'Pro202411',
      amountDue: 1600,
      periodStart: new Date(renewal.periodStart).toISOString(),
      periodEnd: new Date(renewal.periodEnd).toISOString(),
    };
    expect((await webhook(replay)).status).toBe(204);
    expect((await invoicesOf(free.id)).filter((row) => row.id === renewal.id)).toHaveLength(1);

    expect((await page(`${url}/invoices/${renewal.id}/pay`, { method: 'POST' })).status).toBe(303);
    // Paid ahead of its period: active again, the current period unchanged until the paid one begins.
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json).toMatchObject({
      status: 'active',
      currentPeriodStart: before.currentPeriodStart,
      currentPeriodEnd: before.currentPeriodEnd,
    });
    const settled = (await cloud(alice, '/tenants')).json.find((row: Json) => row.id === free.id);
    expect(settled.openInvoices).toEqual([]);
  });

  it('refuses a foreign callback, a collaborator, another user, and another provider', async () => {
    const path = `/tenants/${free.id}/sandbox-customer-portal`;
    const foreign = await cloud(alice, path, { method: 'POST', body: { callbackUrl: 'https://evil.example/' } });
    expect(foreign.status).toBe(400);
    expect(foreign.json.code).toBe('checkout.invalid_callback_url');
    const body = { callbackUrl: `${base}/console` };
    const teamPortal = `/tenants/${team.id}/sandbox-customer-portal`;
    expect((await cloud(bob, teamPortal, { method: 'POST', body })).status).toBe(403);
    expect((await cloud(carol, path, { method: 'POST', body })).status).toBe(404);
    // Rights before input (issue 23 item 10): an outsider learns nothing from the body's validation.
    for (const bad of [{}, { callbackUrl: 'not a url' }, { callbackUrl: 'https://evil.example/' }]) {
      expect((await cloud(carol, path, { method: 'POST', body: bad })).status, JSON.stringify(bad)).toBe(404);
      expect((await cloud(bob, teamPortal, { method: 'POST', body: bad })).status, JSON.stringify(bad)).toBe(403);
    }
    expect((await cloud(alice, `/tenants/${free.id}/stripe-customer-portal`, { method: 'POST', body })).status).toBe(
      404,
    );
    expect((await cloud(bob, `/tenants/${team.id}/invoices`)).status).toBe(403);
    expect((await cloud(bob, `/tenants/${free.id}/invoices`)).status).toBe(404);
    expect((await cloud(carol, `/tenants/${free.id}/invoices`)).status).toBe(404);
    expect((await cloud(carol, `/tenants/${shop.id}/invoices`)).status).toBe(404);
  });
});

describe('cancelling a subscription', () => {
  it('is blocked while the usage does not fit Free, naming each quota, and changes nothing', async () => {
    const token = await tenantToken(base, alice, shop.id);
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      const created = await call(base, `/m/${shop.id}/api/applications`, token, {
        method: 'POST',
        body: { name, type: 'SPA', oidcClientMetadata: { redirectUris: ['https://app.example/cb'] } },
      });
      expect(created.status).toBe(200);
    }
    const organization = await call(base, `/m/${shop.id}/api/organizations`, token, {
      method: 'POST',
      body: { name: 'Acme' },
    });
    expect(organization.status).toBe(201);
    const refused = await cloud(alice, `/tenants/${shop.id}/subscription`, { method: 'DELETE' });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('subscription.downgrade_blocked');
    expect(downgradeBlockedDataSchema.parse(refused.json.data)).toEqual({
      planId: 'Free',
      quota: { applicationsLimit: { limit: 3, usage: 4 }, organizationsLimit: { limit: 0, usage: 1 } },
    });
    expect((await cloud(alice, `/tenants/${shop.id}/subscription`)).json.planId).toBe('Pro202411');
    expect(await invoicesOf(shop.id)).toHaveLength(1);
  });

  it('moves a paid tenant back to Free when it fits; Free is not cancelable; collaborators may not', async () => {
    expect((await cloud(bob, `/tenants/${team.id}/subscription`, { method: 'DELETE' })).status).toBe(403);
    expect((await cloud(carol, `/tenants/${free.id}/subscription`, { method: 'DELETE' })).status).toBe(404);
    const canceled = await cloud(alice, `/tenants/${free.id}/subscription`, { method: 'DELETE' });
    expect(canceled.status, JSON.stringify(canceled.json)).toBe(204);
    expect((await cloud(alice, `/tenants/${free.id}/subscription`)).json).toMatchObject({
      planId: 'Free',
      status: 'active',
    });
    const [entry] = (await new TenantDb(db, ADMIN_TENANT_ID).findMany(logs, {})).filter(
      (row) => (row.payload as Json).after?.reason === 'canceled',
    );
    expect(entry?.userId).toBe(alice.id);
    expect((entry?.payload as Json | undefined)?.before?.planId).toBe('Pro202411');
    const again = await cloud(alice, `/tenants/${free.id}/subscription`, { method: 'DELETE' });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('subscription.not_cancelable');
    const dev = await cloud(alice, '/tenants', { method: 'POST', body: { name: 'Dev' } });
    expect((await cloud(alice, `/tenants/${dev.json.id}/subscription`, { method: 'DELETE' })).json.code).toBe(
      'subscription.not_cancelable',
    );
  });
});

describe('Free-tenant allowance', () => {
  it(`allows ${MAX_FREE_TENANTS} Free production tenants besides the exempt oldest one, then refuses`, async () => {
    const dave = await createCloudAccount(db, base, 'dave');
    const create = (name: string, tag = 'production') =>
      cloud(dave, '/tenants', { method: 'POST', body: { name, tag } });
    // The first tenant (onboarding's) is exempt.
    expect((await create('Onboarding')).status).toBe(201);
    for (let index = 1; index < MAX_FREE_TENANTS; index++) expect((await create(`Free ${index}`)).status).toBe(201);
    // Two creates racing for the last place: exactly one gets it.
    const raced = await Promise.all([create('Race A'), create('Race B')]);
    expect(raced.map((response) => response.status).sort()).toEqual([201, 422]);
    const count = async () => (await cloud(dave, '/tenants')).json.length;
    const before = await count();
    const refused = await create('One too many');
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('subscription.free_tenant_limit');
    expect(await count()).toBe(before);
    expect(
      await db
        .select()
        .from(tenants)
        .where(and(eq(tenants.name, 'One too many'))),
    ).toHaveLength(0);
    // Development tenants and paid checkouts are not Free production tenants.
    expect((await create('Dev', 'development')).status).toBe(201);
    expect((await checkout(dave, { skuId: 'Pro202411', tenantName: 'Paid' })).status).toBe(201);
  }, 30_000);
});

describe('OSS edition', () => {
  it('has no billing routes or sandbox pages', async () => {
    const oss = await createTestApp();
    try {
      for (const path of ['/api/checkout-session', '/api/payment-webhooks/sandbox']) {
        expect((await oss.call(path, { method: 'POST', body: {} })).status, path).toBe(404);
      }
      expect((await oss.call('/api/payment-provider')).status).toBe(404);
      expect((await oss.call('/sandbox-payments/checkout/abc', { auth: false })).status).toBe(404);
    } finally {
      await oss.close();
    }
  });
});
