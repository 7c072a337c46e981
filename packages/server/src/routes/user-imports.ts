import { generateId, paginationQuerySchema, userImportCreateSchema, userImportJobSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { userImportJobs } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { toUserImportJob } from '../services/user-import-worker.ts';

const tags = ['Users'];

const createImport = createRoute({
  method: 'post',
  path: '/users/imports',
  tags,
  summary: 'Import users from a CSV or JSON file (a server-side job)',
  description:
    'Each row is checked like POST /users and upserted by username, then email: a row matching a user updates the fields it gives, so running the same file again changes nothing. Plaintext passwords are checked against the password policy and stored as Argon2id; `passwordDigest` with `passwordAlgorithm` imports a hash as it is. A bad row is reported with its line and the others are imported; `dryRun` checks every row and writes nothing. Answers 202 at once; poll GET /users/imports/{id} for progress and row errors.',
  request: { body: jsonBody(userImportCreateSchema) },
  responses: { 202: jsonResponse(userImportJobSchema, 'The queued job.'), ...errorResponses },
});

const listImports = createRoute({
  method: 'get',
  path: '/users/imports',
  tags,
  summary: 'List import jobs, newest first (without their row errors)',
  request: { query: paginationQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(userImportJobSchema), 'A page of jobs.'), headers: paginatedHeaders },
    ...errorResponses,
  },
});

const getImport = createRoute({
  method: 'get',
  path: '/users/imports/{id}',
  tags,
  summary: 'An import job: status, counters and row errors (line, field, code, message)',
  request: { params: z.object({ id: z.string().min(1).max(21) }) },
  responses: { 200: jsonResponse(userImportJobSchema, 'The job.'), ...errorResponses, ...notFoundResponse },
});

export const userImportsRoutes = createRouter()
  .openapi(createImport, async (c) => {
    const body = c.req.valid('json');
    const row = await c.get('tenant').insert(userImportJobs, {
      id: generateId(),
      format: body.format,
      source: body.source,
      mapping: body.mapping ?? {},
      dryRun: body.dryRun ?? false,
      createdBy: c.get('auth').actor.id,
    });
    return c.json(toUserImportJob(row, true), 202);
  })
  .openapi(listImports, async (c) => {
    const rows = await listPage(c, userImportJobs, c.req.valid('query'), {
      orderBy: [desc(userImportJobs.createdAt), desc(userImportJobs.id)],
    });
    return c.json(
      rows.map((row) => toUserImportJob(row, false)),
      200,
    );
  })
  .openapi(getImport, async (c) => {
    const row = await c.get('tenant').findOne(userImportJobs, eq(userImportJobs.id, c.req.valid('param').id));
    if (!row) throw notFound();
    return c.json(toUserImportJob(row, true), 200);
  });
