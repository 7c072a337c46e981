import { skuSchema, skuTypes, subscriptionSchema, subscriptionUsageSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { availableSkus, listSkus, readSubscription, subscriptionUsage } from '../../services/subscriptions.ts';
import { type CloudDeps, idParams, tags } from './shared.ts';
import { tenantAccess, tenantRoute } from './tenant-access.ts';

/** Plans, a tenant's subscription and its usage against the plan's quota (spec §3, §7, §9). Read-only. */

const typeQuery = z.object({ type: z.enum(skuTypes).optional() });

const listSkusRoute = createRoute({
  method: 'get',
  path: '/skus',
  tags,
  summary: 'Plans (SKUs), optionally of one type',
  request: { query: typeQuery },
  responses: { 200: jsonResponse(z.array(skuSchema), 'Plans in plan order.'), ...errorResponses },
});

const availableSkusRoute = tenantRoute({
  access: 'member',
  method: 'get',
  path: '/tenants/{id}/available-skus',
  tags,
  summary: 'The plans a tenant may subscribe to (none for a development tenant)',
  request: { params: idParams, query: typeQuery },
  responses: {
    200: jsonResponse(z.array(skuSchema), 'Offered plans, in offer order.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const subscriptionRoute = tenantRoute({
  access: 'member',
  method: 'get',
  path: '/tenants/{id}/subscription',
  tags,
  summary: "A tenant's subscription",
  request: { params: idParams },
  responses: { 200: jsonResponse(subscriptionSchema, 'The subscription.'), ...errorResponses, ...notFoundResponse },
});

const usageRoute = tenantRoute({
  access: 'member',
  method: 'get',
  path: '/tenants/{id}/subscription-usage',
  tags,
  summary: "A tenant's quota and usage in the current period",
  request: { params: idParams },
  responses: {
    200: jsonResponse(subscriptionUsageSchema, 'Quota, usage and scope counts per resource and role.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

export function cloudBillingRoutes({ db }: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listSkusRoute, async (c) => c.json(await listSkus(db, c.req.valid('query').type), 200))
    .openapi(availableSkusRoute, async (c) =>
      c.json(await availableSkus(db, tenantAccess(c).tenant, c.req.valid('query').type), 200),
    )
    .openapi(subscriptionRoute, async (c) => c.json(await readSubscription(db, tenantAccess(c).tenant), 200))
    .openapi(usageRoute, async (c) => c.json(await subscriptionUsage(db, tenantAccess(c).tenant), 200));
}
