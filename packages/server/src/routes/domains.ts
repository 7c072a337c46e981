import { domainCreateSchema, domainSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as domainService from '../services/domains.ts';

/** Custom domains of a tenant (`/domains`, issue 8): at most one, verified by DNS, then by an HTTPS probe. */

const tags = ['Domains'];
const idParams = z.object({ id: pathIdSchema });

const checkDescription =
  'A domain that is not Active and was last checked more than 10 seconds ago is checked again before it is ' +
  'returned: TXT `_gatehouse-challenge.{domain}` = the token and CNAME `{domain}` → the target give PendingSsl, ' +
  'then Active once `https://{domain}/api/status` answers over a valid certificate; a CNAME elsewhere gives Error.';

const listDomains = createRoute({
  method: 'get',
  path: '/domains',
  tags,
  summary: "List the tenant's custom domains, newest first (not paginated)",
  description: checkDescription,
  responses: { 200: jsonResponse(z.array(domainSchema), 'The domains.'), ...errorResponses },
});

const createDomain = createRoute({
  method: 'post',
  path: '/domains',
  tags,
  summary: 'Add a custom domain (status PendingVerification, with the DNS records to publish)',
  request: { body: jsonBody(domainCreateSchema) },
  responses: {
    201: jsonResponse(domainSchema, 'The new domain.'),
    ...errorResponses,
    422: errorResponse(
      'The tenant already has a custom domain (`domain.limit_reached`) or another tenant uses this one ' +
        '(`domain.domain_in_use`).',
    ),
  },
});

const getDomain = createRoute({
  method: 'get',
  path: '/domains/{id}',
  tags,
  summary: 'Get a custom domain',
  description: checkDescription,
  request: { params: idParams },
  responses: { 200: jsonResponse(domainSchema, 'The domain.'), ...errorResponses, ...notFoundResponse },
});

const deleteDomain = createRoute({
  method: 'delete',
  path: '/domains/{id}',
  tags,
  summary: 'Delete a custom domain',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const domainsRoutes = createRouter()
  .openapi(listDomains, async (c) => {
    return c.json(await domainService.listDomains(c.get('tenant'), c.get('config').customDomains, c.get('log')), 200);
  })
  .openapi(createDomain, async (c) => {
    return c.json(await domainService.createDomain(writeContext(c), c.get('config'), c.req.valid('json')), 201);
  })
  .openapi(getDomain, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await domainService.getDomain(c.get('tenant'), id, c.get('config').customDomains, c.get('log')), 200);
  })
  .openapi(deleteDomain, async (c) => {
    await domainService.deleteDomain(writeContext(c), c.req.valid('param').id, c.get('config').customDomains.target);
    return c.body(null, 204);
  });
