import { generateId, type InvoiceStatus, type Language, planRank, type SubscriptionStatus } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { signInStylesheet } from '../auth/sign-in-page.ts';
import type { Database } from '../db/client.ts';
import { invoices, skus } from '../db/tables.ts';
import { errorMessage } from '../i18n/messages.ts';
import { type SandboxPaymentKey, sandboxPaymentText } from '../i18n/sandbox-payments.ts';
import { readSubscription } from '../services/subscriptions.ts';
import { findTenantRow } from '../services/tenants.ts';
import type { AppEnv } from '../shared/app-env.ts';
import { html, page as htmlPage, type SafeHtml, sendHtml } from '../shared/html.ts';
import { cancelCheckoutSession, expireIfDue, findCheckoutSession } from './checkout.ts';
import { applyPaymentEvent, listInvoices, paidPeriod } from './payments.ts';
import { SANDBOX_BASE_PATH, type SandboxPaymentProvider } from './sandbox.ts';

/**
 * The sandbox provider's own pages (cloud edition, PAYMENT_PROVIDER=sandbox): a checkout page where a person pays or
 * cancels, and a customer portal listing a tenant's plan and invoices. Plain HTML forms, no script, the stylesheet
 * served as a file (the CSP forbids inline script and style). Paying goes through {@link applyPaymentEvent}, the
 * path a real provider's webhook takes.
 */

const STYLESHEET_PATH = `${SANDBOX_BASE_PATH}/assets/sandbox.css`;
const stylesheet = `${signInStylesheet}
.test-mode{border:1px solid var(--border);border-left:4px solid #e0a100;border-radius:8px;padding:10px 12px;margin:0 0 20px;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 8px}dt{color:var(--muted)}dd{margin:0;font-weight:600}
.actions{display:flex;gap:12px}.actions form{flex:1}
button.secondary{background:transparent;color:var(--text);border:1px solid var(--border)}
table{width:100%;border-collapse:collapse;margin:8px 0 0}th,td{text-align:start;padding:8px 4px;border-bottom:1px solid var(--border)}
td button{margin:0;padding:4px 12px;width:auto}h2{font-size:1.1rem;margin:24px 0 4px}`;

const money = (cents: number, language: Language) =>
  new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(cents / 100);
const day = (at: Date, language: Language) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);

/** A sandbox page: the shared frame, kept out of indexes, saying first that nothing is charged. */
const page = (language: Language, title: string, body: SafeHtml) =>
  htmlPage({
    language,
    title,
    stylesheet: STYLESHEET_PATH,
    noindex: true,
    body: html`<p class="test-mode" role="note">${sandboxPaymentText(language, 'test_mode')}</p>
${body}`,
  });

const errorPage = (language: Language, message: string) =>
  page(language, sandboxPaymentText(language, 'error_title'), html`<p role="alert" class="error">${message}</p>`);

export function sandboxPaymentPages(db: Database, provider: SandboxPaymentProvider) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    await next();
    // Capability URLs: never cached, never indexed.
    c.header('Cache-Control', 'no-store');
  });
  app.get('/assets/sandbox.css', (c) => c.body(stylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

  const t = (language: Language, key: SandboxPaymentKey, values?: Record<string, string | number>) =>
    sandboxPaymentText(language, key, values);

  /** The session if it can still be paid, else the error page to answer. */
  async function openSession(id: string, language: Language) {
    const found = id.length <= 64 ? await findCheckoutSession(db, id) : undefined;
    if (!found || found.provider !== provider.id)
      return { error: errorPage(language, sandboxPaymentText(language, 'link_invalid')), status: 404 as const };
    const session = await expireIfDue(db, found);
    if (session.status !== 'open')
      return { error: errorPage(language, errorMessage('checkout.session_not_open', language)), status: 409 as const };
    return { session };
  }

  app.get('/checkout/:id', async (c) => {
    const language = c.get('language');
    const found = await openSession(c.req.param('id'), language);
    if (!found.session) return sendHtml(c, found.error, found.status);
    const { session } = found;
    const [sku] = await db.select().from(skus).where(eq(skus.id, session.skuId));
    const tenant = session.tenantId ? await findTenantRow(db, session.tenantId) : undefined;
    const tenantName = tenant ? tenant.name : t(language, 'new_tenant', { name: session.tenantName ?? '' });
    const price = money(session.amount, language);
    const action = `${SANDBOX_BASE_PATH}/checkout/${encodeURIComponent(session.id)}`;
    return sendHtml(
      c,
      page(
        language,
        sandboxPaymentText(language, 'checkout_title'),
        html`<dl>
<dt>${t(language, 'tenant')}</dt><dd>${tenantName}</dd>
<dt>${t(language, 'plan')}</dt><dd>${sku?.name ?? session.skuId}</dd>
<dt>${t(language, 'price')}</dt><dd>${t(language, 'per_month', { price })}</dd>
</dl>
<div class="actions">
<form method="post" action="${action}/confirm"><button type="submit">${t(language, 'pay')}</button></form>
<form method="post" action="${action}/cancel"><button type="submit" class="secondary">${t(language, 'cancel')}</button></form>
</div>`,
      ),
    );
  });

  app.post('/checkout/:id/confirm', async (c) => {
    const language = c.get('language');
    const found = await openSession(c.req.param('id'), language);
    if (!found.session) return sendHtml(c, found.error, found.status);
    const { applied } = await applyPaymentEvent(
      db,
      provider.id,
      { type: 'checkout.completed', sessionId: found.session.id },
      { requestId: c.get('requestId') },
    );
    // A concurrent confirm (double click) completed it first: the page says so and nothing is charged twice.
    if (!applied) return sendHtml(c, errorPage(language, errorMessage('checkout.session_not_open', language)), 409);
    return c.redirect(found.session.successCallbackUrl, 303);
  });

  app.post('/checkout/:id/cancel', async (c) => {
    const language = c.get('language');
    const found = await openSession(c.req.param('id'), language);
    if (!found.session) return sendHtml(c, found.error, found.status);
    const canceled = await cancelCheckoutSession(db, found.session.id, {
      providerId: provider.id,
      requestId: c.get('requestId'),
    });
    if (!canceled) return sendHtml(c, errorPage(language, errorMessage('checkout.session_not_open', language)), 409);
    return c.redirect(found.session.successCallbackUrl, 303);
  });

  /** The portal token's tenant, if the token is genuine, unexpired and the tenant still exists. */
  async function portalTenant(token: string) {
    const content = token.length <= 4096 ? provider.readPortalToken(token) : undefined;
    const tenant = content && (await findTenantRow(db, content.tenantId));
    return content && tenant ? { content, tenant } : undefined;
  }

  app.get('/portal/:token', async (c) => {
    const language = c.get('language');
    const token = c.req.param('token');
    const found = await portalTenant(token);
    if (!found) return sendHtml(c, errorPage(language, sandboxPaymentText(language, 'link_invalid')), 404);
    const { tenant, content } = found;
    const [subscription, list] = await Promise.all([readSubscription(db, tenant), listInvoices(db, tenant.id)]);
    const status = (value: SubscriptionStatus) => t(language, `status_${value}`);
    const invoiceStatus = (value: InvoiceStatus) => t(language, `invoice_${value}`);
    const rows = list.map((invoice) => {
      const pay =
        invoice.status === 'open' &&
        html`<form method="post" action="${SANDBOX_BASE_PATH}/portal/${token}/invoices/${encodeURIComponent(invoice.id)}/pay"><button type="submit">${t(language, 'pay')}</button></form>`;
      return html`\n<tr><td>${day(new Date(invoice.periodStart), language)} &ndash; ${day(new Date(invoice.periodEnd), language)}</td><td>${money(invoice.amountDue, language)}</td><td>${invoiceStatus(invoice.status)}</td><td>${pay}</td></tr>`;
    });
    return sendHtml(
      c,
      page(
        language,
        sandboxPaymentText(language, 'portal_title'),
        html`<dl>
<dt>${t(language, 'tenant')}</dt><dd>${tenant.name}</dd>
<dt>${t(language, 'current_plan')}</dt><dd>${subscription.planId}</dd>
<dt>${t(language, 'status')}</dt><dd>${status(subscription.status)}</dd>
</dl>
<h2>${t(language, 'invoices')}</h2>
${
  list.length
    ? html`<table><thead><tr><th>${t(language, 'period')}</th><th>${t(language, 'amount')}</th><th>${t(language, 'status')}</th><th></th></tr></thead><tbody>${rows}
</tbody></table>`
    : html`<p>${t(language, 'no_invoices')}</p>`
}
${
  planRank(subscription.planId) >= 1 && !list.some((invoice) => invoice.status === 'open')
    ? html`<h2>${t(language, 'simulate_title')}</h2>
<p>${t(language, 'simulate_hint')}</p>
<form method="post" action="${SANDBOX_BASE_PATH}/portal/${token}/renewal-failure"><button type="submit" class="secondary">${t(language, 'simulate_failed_renewal')}</button></form>`
    : ''
}
<p class="switch"><a href="${content.callbackUrl}">${t(language, 'back')}</a></p>`,
      ),
    );
  });

  /**
   * Test mode only: what a real provider reports when a renewal cannot be charged — the next period's invoice,
   * opened and failed — so the overdue notices can be seen without waiting a month.
   */
  app.post('/portal/:token/renewal-failure', async (c) => {
    const language = c.get('language');
    const token = c.req.param('token');
    const found = await portalTenant(token);
    if (!found) return sendHtml(c, errorPage(language, sandboxPaymentText(language, 'link_invalid')), 404);
    const { tenant } = found;
    const back = c.redirect(`${SANDBOX_BASE_PATH}/portal/${token}`, 303);
    // One open renewal at a time (a second click, a replayed form): nothing more to open.
    const [open] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.tenantId, tenant.id), eq(invoices.status, 'open')))
      .limit(1);
    if (open) return back;
    const subscription = await readSubscription(db, tenant);
    const [sku] = await db.select().from(skus).where(eq(skus.id, subscription.planId));
    if (!sku || planRank(sku.id) < 1 || sku.unitPrice === 0)
      return sendHtml(c, errorPage(language, errorMessage('subscription.not_cancelable', language)), 409);
    const period = paidPeriod(new Date(subscription.currentPeriodEnd));
    const invoiceId = generateId();
    const context = { requestId: c.get('requestId') };
    await applyPaymentEvent(
      db,
      provider.id,
      {
        type: 'invoice.created',
        tenantId: tenant.id,
        invoiceId,
        planId: sku.id,
        amountDue: sku.unitPrice,
        periodStart: period.start,
        periodEnd: period.end,
      },
      context,
    );
    await applyPaymentEvent(
      db,
      provider.id,
      { type: 'invoice.payment_failed', tenantId: tenant.id, invoiceId },
      context,
    );
    return c.redirect(`${SANDBOX_BASE_PATH}/portal/${token}`, 303);
  });

  app.post('/portal/:token/invoices/:invoiceId/pay', async (c) => {
    const language = c.get('language');
    const token = c.req.param('token');
    const found = await portalTenant(token);
    if (!found) return sendHtml(c, errorPage(language, sandboxPaymentText(language, 'link_invalid')), 404);
    const invoiceId = c.req.param('invoiceId');
    const [invoice] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.tenantId, found.tenant.id), eq(invoices.id, invoiceId)));
    if (!invoice) return sendHtml(c, errorPage(language, sandboxPaymentText(language, 'link_invalid')), 404);
    await applyPaymentEvent(
      db,
      provider.id,
      { type: 'invoice.paid', tenantId: found.tenant.id, invoiceId },
      { requestId: c.get('requestId') },
    );
    return c.redirect(`${SANDBOX_BASE_PATH}/portal/${token}`, 303);
  });

  return app;
}
