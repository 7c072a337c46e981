import {
  checkoutSessionCreatedSchema,
  checkoutSessionCreateSchema,
  checkoutSessionSchema,
  customerPortalRequestSchema,
  customerPortalResponseSchema,
  downgradeBlockedDataSchema,
  invoiceSchema,
  paymentProviderSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { assertConsoleCallback, openCheckoutSession, readOwnCheckoutSession } from '../../billing/checkout.ts';
import { cancelToFree, listInvoices } from '../../billing/payments.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../../http/route-kit.ts';

import { writeContext } from '../../http/write-context.ts';

import { type CloudDeps, idParams, tags } from './shared.ts';
import { tenantAccess, tenantRoute } from './tenant-access.ts';

/**
 * Checkout, cancellation, invoices and the customer portal (spec §4 checkout and cancelling, §7), through the
 * configured payment provider (src/billing). The provider's webhook is in payment-webhooks.ts (no bearer token).
 */

const createSessionRoute = createRoute({
  method: 'post',
  path: '/checkout-session',
  tags,
  summary: 'Open a checkout session for a paid plan (an existing tenant, or a new production tenant once paid)',
  description:
    'An existing tenant needs the tenant permission `manage:tenant`, a new one the cloud scope `create:tenant`. ' +
    'The browser goes to `redirectUri`, the provider returns it to `successCallbackUrl`.',
  request: { body: jsonBody(checkoutSessionCreateSchema) },
  responses: {
    201: jsonResponse(checkoutSessionCreatedSchema, 'The session and where the browser pays.'),
    ...errorResponses,
    400: errorResponse('Invalid input, or a callback URL off the console origin (`checkout.invalid_callback_url`).'),
    ...notFoundResponse,
    422: errorResponse(
      'The plan is unknown, not offered to the tenant, Free, or the plan it has (`subscription.sku_not_available`).',
    ),
  },
});

const readSessionRoute = createRoute({
  method: 'get',
  path: '/checkout-session/{id}',
  tags,
  summary: 'A checkout session of the caller (polled by the checkout callback page)',
  request: { params: idParams },
  responses: {
    200: jsonResponse(checkoutSessionSchema, 'The session; an open one past its time reads expired.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const cancelRoute = tenantRoute({
  access: 'manage:tenant',
  method: 'delete',
  path: '/tenants/{id}/subscription',
  tags,
  summary: "Cancel a tenant's paid subscription: back to Free at once (tenant permission `manage:tenant`)",
  request: { params: idParams },
  responses: {
    204: { description: 'The tenant is on Free.' },
    ...errorResponses,
    ...notFoundResponse,
    422: {
      description:
        'No paid plan (`subscription.not_cancelable`), or the usage does not fit Free (`subscription.downgrade_blocked`, ' +
        '`data` names every blocking quota).',
      content: {
        'application/json': {
          schema: z.object({ code: z.string(), message: z.string(), data: downgradeBlockedDataSchema.optional() }),
        },
      },
    },
  },
});

const invoicesRoute = tenantRoute({
  access: 'manage:tenant',
  method: 'get',
  path: '/tenants/{id}/invoices',
  tags,
  summary: "A tenant's invoices, newest first (tenant permission `manage:tenant`)",
  request: { params: idParams },
  responses: { 200: jsonResponse(z.array(invoiceSchema), 'Invoices.'), ...errorResponses, ...notFoundResponse },
});

const providerRoute = createRoute({
  method: 'get',
  path: '/payment-provider',
  tags,
  summary: 'The payment provider this server uses',
  responses: { 200: jsonResponse(paymentProviderSchema, 'Its id and name.'), ...errorResponses },
});

export function cloudCheckoutRoutes(deps: CloudDeps) {
  const { db, payments, publicUrl } = deps;
  // Spec §7 names the route after the provider: `/{provider}-customer-portal`.
  const portalRoute = tenantRoute({
    access: 'manage:tenant',
    method: 'post',
    path: `/tenants/{id}/${payments.id}-customer-portal`,
    tags,
    summary: "A link to the payment provider's customer portal for the tenant (tenant permission `manage:tenant`)",
    request: { params: idParams, body: jsonBody(customerPortalRequestSchema) },
    responses: {
      200: jsonResponse(customerPortalResponseSchema, 'Where to open the portal.'),
      ...errorResponses,
      400: errorResponse('Invalid input, or a callback URL off the console origin (`checkout.invalid_callback_url`).'),
      ...notFoundResponse,
    },
  });
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(createSessionRoute, async (c) => {
      const auth = c.get('auth');
      const created = await openCheckoutSession(
        db,
        writeContext(c),
        { provider: payments, publicUrl, canCreateTenant: auth.scopes.has('create:tenant') },
        c.req.valid('json'),
      );
      return c.json(created, 201);
    })
    .openapi(readSessionRoute, async (c) =>
      c.json(await readOwnCheckoutSession(db, c.req.valid('param').id, c.get('auth').actor.id), 200),
    )
    .openapi(cancelRoute, async (c) => {
      const { tenant: _admin, ...ctx } = writeContext(c);
      await cancelToFree(db, ctx, payments, tenantAccess(c));
      return c.body(null, 204);
    })
    .openapi(invoicesRoute, async (c) => c.json(await listInvoices(db, tenantAccess(c).tenant.id), 200))
    .openapi(portalRoute, async (c) => {
      const { callbackUrl } = c.req.valid('json');
      assertConsoleCallback(callbackUrl, publicUrl);
      return c.json({ redirectUri: await payments.customerPortalUrl(tenantAccess(c).tenant, callbackUrl) }, 200);
    })
    .openapi(providerRoute, async (c) => c.json({ id: payments.id, name: payments.name }, 200));
}
