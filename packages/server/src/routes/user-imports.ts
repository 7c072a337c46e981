import {
  invalidFields,
  paginationQuerySchema,
  type UserImportCreate,
  userImportCreateSchema,
  userImportFormats,
  userImportJobSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import * as imports from '../services/user-import-worker.ts';

const tags = ['Users'];

/** The multipart form of POST /users/imports: the file itself, the rest as text fields. */
const userImportFormSchema = z.object({
  file: z.file().openapi({ type: 'string', format: 'binary', description: 'The CSV or JSON file.' }),
  format: z
    .enum(userImportFormats)
    .optional()
    .meta({ description: 'Taken from the file name (.csv, .json) when absent.' }),
  mapping: z.string().optional().meta({ description: 'The mapping as a JSON object (file column → user field).' }),
  dryRun: z.enum(['true', 'false']).optional(),
});

/** The import a request asks for, from either body; 400 with the failing fields otherwise. */
async function importRequest(
  contentType: string | undefined,
  json: unknown,
  validForm: unknown,
): Promise<UserImportCreate> {
  let body = json;
  if (/^multipart\/form-data/i.test(contentType ?? '')) {
    // Validated by the route against userImportFormSchema when the body is multipart.
    const form = validForm as z.output<typeof userImportFormSchema>;
    let mapping: unknown;
    try {
      mapping = form.mapping ? JSON.parse(form.mapping) : undefined;
    } catch {
      mapping = form.mapping;
    }
    const extension = /\.(csv|json)$/i.exec(form.file.name)?.[1]?.toLowerCase();
    body = {
      format: form.format ?? extension,
      source: await form.file.text(),
      mapping,
      dryRun: form.dryRun === 'true',
    };
  }
  const parsed = userImportCreateSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(400, 'guard.invalid_input', invalidFields(parsed.error));
  return parsed.data;
}

const createImport = createRoute({
  method: 'post',
  path: '/users/imports',
  tags,
  summary: 'Import users from a CSV or JSON file (a server-side job; JSON body or multipart upload)',
  description:
    'Each row is checked like POST /users and upserted by username, then email: a row matching a user updates the fields it gives, so running the same file again changes nothing. Plaintext passwords are checked against the password policy and stored as Argon2id; `passwordDigest` with `passwordAlgorithm` imports a hash as it is. A bad row is reported with its line and the others are imported; `dryRun` checks every row and writes nothing. Answers 202 at once; poll GET /users/imports/{id} for progress and row errors.',
  request: {
    body: {
      // Not `required`: each content type is then validated only when it is the one sent.
      required: false,
      content: {
        'application/json': { schema: userImportCreateSchema },
        'multipart/form-data': { schema: userImportFormSchema },
      },
    },
  },
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
    const body = await importRequest(c.req.header('Content-Type'), c.req.valid('json'), c.req.valid('form'));
    return c.json(await imports.queueUserImport(c.get('tenant'), c.get('auth').actor.id, body), 202);
  })
  .openapi(listImports, async (c) => {
    const rows = await listPage(c, imports.userImportList(c.get('tenant')), c.req.valid('query'));
    return c.json(
      rows.map((row) => imports.toUserImportJob(row, false)),
      200,
    );
  })
  .openapi(getImport, async (c) => {
    return c.json(await imports.getUserImportJob(c.get('tenant'), c.req.valid('param').id), 200);
  });
