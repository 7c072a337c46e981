import { domainCreateSchema, domainSchema, errorBodySchema, generateId, idSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { domains } from '../db/tables.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import {
  auditedDomain,
  newVerificationToken,
  refreshDomains,
  reservedDomainReason,
  toDomain,
} from '../services/domains.ts';
import { performWrite } from '../services/write-path.ts';

/** Custom domains of a tenant (`/domains`, issue 8): at most one, verified by DNS, then by an HTTPS probe. */

const tags = ['Domains'];
const idParams = z.object({ id: idSchema });
/** As the reference product: one custom domain per tenant. */
const DOMAINS_PER_TENANT = 1;

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
    422: {
      description:
        'The tenant already has a custom domain (`domain.limit_reached`) or another tenant uses this one ' +
        '(`domain.domain_in_use`).',
      content: { 'application/json': { schema: errorBodySchema } },
    },
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

const checkConfig = (c: Context<AppEnv>) => c.get('config').customDomains;

export const domainsRoutes = createRouter()
  .openapi(listDomains, async (c) => {
    const tenant = c.get('tenant');
    const rows = await tenant.findMany(domains, { orderBy: [desc(domains.createdAt), desc(domains.id)] });
    const current = await refreshDomains(tenant, rows, checkConfig(c), c.get('log'));
    return c.json(
      current.map((row) => toDomain(row, checkConfig(c).target)),
      200,
    );
  })
  .openapi(createDomain, async (c) => {
    const { publicUrl, customDomains } = c.get('config');
    const domain = await performWrite(
      writeContext(c),
      { key: 'Admin.Domain.Created', schema: domainCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const reason = reservedDomainReason(input.domain, new URL(publicUrl).hostname, customDomains.target);
        if (reason) {
          throw new ApiError(400, 'guard.invalid_input', [{ path: 'domain', message: reason, code: 'custom' }]);
        }
        // Two concurrent creates would each count zero: a per-tenant transaction lock serialises them. It is
        // taken in its own statement so the count below reads with a snapshot from after the lock.
        await tx.aggregate(
          { rows: count(), locked: sql`(select 1 from pg_advisory_xact_lock(hashtext(${`domains:${tx.tenantId}`})))` },
          domains,
        );
        if ((await tx.count(domains)) >= DOMAINS_PER_TENANT) throw new ApiError(422, 'domain.limit_reached');
        const created = toDomain(
          await tx.insert(domains, {
            id: generateId(),
            domain: input.domain,
            status: 'PendingVerification',
            verificationToken: newVerificationToken(),
          }),
          customDomains.target,
        );
        return {
          result: created,
          entity: { type: 'Domain', id: created.id },
          before: null,
          after: auditedDomain(created),
        };
      },
    );
    return c.json(domain, 201);
  })
  .openapi(getDomain, async (c) => {
    const tenant = c.get('tenant');
    const row = await tenant.findOne(domains, eq(domains.id, c.req.valid('param').id));
    if (!row) throw notFound();
    const [current] = await refreshDomains(tenant, [row], checkConfig(c), c.get('log'));
    if (!current) throw notFound();
    return c.json(toDomain(current, checkConfig(c).target), 200);
  })
  .openapi(deleteDomain, async (c) => {
    const { id } = c.req.valid('param');
    const target = checkConfig(c).target;
    await performWrite(
      writeContext(c),
      { key: 'Admin.Domain.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const [deleted] = await tx.delete(domains, eq(domains.id, id));
        if (!deleted) throw notFound();
        return {
          result: undefined,
          entity: { type: 'Domain', id },
          before: auditedDomain(toDomain(deleted, target)),
          after: null,
        };
      },
    );
    return c.body(null, 204);
  });
