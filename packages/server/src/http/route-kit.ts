import {
  DEFAULT_PAGE_SIZE,
  errorBodySchema,
  invalidFields,
  type PaginationQuery,
  TOTAL_NUMBER_HEADER,
  TOTAL_NUMBER_IS_CAPPED_HEADER,
} from '@gatehouse/schemas';
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Input } from 'hono';
import { z } from 'zod';
import type { ListSource, Page } from '../services/list-query.ts';
import type { AppEnv } from '../shared/app-env.ts';
import { ApiError } from './errors.ts';
import { undeclaredKeysDropped } from './undeclared-keys.ts';

const paginationFields = new Set(['page', 'page_size']);

type ValidationResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** Turns a failed validation into `400 {code, message, data}` with the failing fields. */
function refuseInvalid(result: ValidationResult): void {
  if (result.success) return;
  const fields = invalidFields(result.error);
  const onlyPagination =
    result.target === 'query' && fields.every((field) => paginationFields.has(field.path.split('.')[0] ?? ''));
  throw new ApiError(400, onlyPagination ? 'guard.invalid_pagination' : 'guard.invalid_input', fields);
}

/** A router whose validation failures become `400 {code, message, data}` with the failing fields. */
export function createRouter(options: { undeclaredKeys?: 'drop' | 'refuse' } = {}) {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: refuseInvalid });
  if (options.undeclaredKeys === 'refuse') return router;
  // The management API's routes: undeclared body keys are dropped, as the reference does (http/undeclared-keys.ts).
  const register = router.openapi;
  router.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (register as (...args: unknown[]) => unknown)(withUndeclaredKeysDropped(route), ...rest)) as typeof register;
  return router;
}

function withUndeclaredKeysDropped(route: RouteConfig): RouteConfig {
  const media = route.request?.body?.content?.['application/json'];
  const schema = media && 'schema' in media ? media.schema : undefined;
  if (!(schema instanceof z.ZodType)) return route;
  const middleware = route.middleware === undefined ? [] : [route.middleware].flat();
  return { ...route, middleware: [undeclaredKeysDropped(schema), ...middleware] };
}

/** The query parameters of the reference's search syntax (`search[.<field>]`, `mode[.<field>]`, `joint`, …). */
const isSearchSyntaxKey = (key: string) =>
  ['search', 'mode', 'joint', 'jointMode', 'isCaseSensitive'].includes(key) ||
  key.startsWith('search.') ||
  key.startsWith('mode.');

/**
 * The validation hook of a list taking the reference's search syntax: when only search parameters are wrong (an
 * unknown mode, field or joint), 400 `request.invalid_input` with the failing fields, as the reference answers its
 * search parser's errors; anything else wrong (pagination, filters) answers as every route does.
 */
export function searchSyntaxHook(result: ValidationResult): undefined {
  if (result.success) return undefined;
  const fields = invalidFields(result.error);
  if (result.target === 'query' && fields.length && fields.every((field) => isSearchSyntaxKey(field.path))) {
    throw new ApiError(400, 'request.invalid_input', fields);
  }
  refuseInvalid(result);
  return undefined;
}

/** OpenAPI descriptions of the error answers a route can give. */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});
export const errorResponses = {
  400: errorResponse('Invalid input (`guard.invalid_input`, `guard.invalid_pagination`, `request.invalid_json`).'),
  401: errorResponse('Missing or invalid bearer token (`auth.unauthorized`).'),
  403: errorResponse('The token lacks the required scope (`auth.forbidden`).'),
} as const;
export const notFoundResponse = { 404: errorResponse('No such entity (`entity.not_exists_with_id`).') } as const;
export const conflictResponse = { 422: errorResponse('A unique value is already in use.') } as const;

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Response headers of a paginated list (OpenAPI). */
export const paginatedHeaders = z.object({
  [TOTAL_NUMBER_HEADER]: z.string().meta({ description: 'Total number of matching rows.' }),
  Link: z.string().optional().meta({ description: 'RFC 8288 links: first, prev, next, last.' }),
});

/**
 * The reference's optional pagination: a list declared with it answers every row, without `Total-Number` or `Link`,
 * when neither `page` nor `page_size` is given. Headers of such a list (OpenAPI): both may be missing.
 */
export const optionalPaginatedHeaders = z.object({
  [TOTAL_NUMBER_HEADER]: z
    .string()
    .optional()
    .meta({ description: 'Total number of matching rows; only when `page` or `page_size` is given.' }),
  Link: z.string().optional().meta({ description: 'RFC 8288 links: first, prev, next, last (paginated answers).' }),
});

/**
 * The most rows an unpaginated answer holds. A list longer than this answers 400 `guard.pagination_required`
 * (with `data.maxRows`) instead of a truncated array a client would take for the whole list.
 */
export const UNPAGINATED_ROW_LIMIT = 10_000;

/** Whether a request of an optionally paginated list asks for every row (neither `page` nor `page_size`). */
export const asksForAllRows = (query: PaginationQuery) => query.page === undefined && query.page_size === undefined;

export function toPage(query: PaginationQuery): Page {
  const page = query.page ?? 1;
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/** Sets `Total-Number` and an RFC 8288 `Link` header (first, prev, next, last). */
export function setPaginationHeaders(c: Context<AppEnv>, page: Page, total: number): void {
  c.header(TOTAL_NUMBER_HEADER, String(total));
  // The request's own path and query, as sent, without WHATWG URL parsing (a list's costliest header).
  const requestUrl = c.req.url;
  const queryAt = requestUrl.indexOf('?');
  const pathAt = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2);
  const path = requestUrl.slice(pathAt, queryAt === -1 ? undefined : queryAt);
  const query = queryAt === -1 ? '' : requestUrl.slice(queryAt + 1);
  const lastPage = Math.max(1, Math.ceil(total / page.pageSize));
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set('page', String(target));
    params.set('page_size', String(page.pageSize));
    return `<${path}?${params}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(Math.min(page.page - 1, lastPage), 'prev'));
  if (page.page < lastPage) links.push(link(page.page + 1, 'next'));
  links.push(link(lastPage, 'last'));
  c.header('Link', links.join(', '));
}

/**
 * One page of a service's list with its total (exact, or capped when asked), and the pagination headers set. The
 * service answers the rows and the total ({@link ListSource}); the route names no table.
 */
export async function listPage<Row>(
  c: Context<AppEnv>,
  source: ListSource<Row>,
  query: PaginationQuery,
  options: {
    /** Stop counting here (very large tables): the total then says `Total-Number-Is-Capped: true`. */
    countCap?: number | undefined;
  } = {},
): Promise<Row[]> {
  const page = toPage(query);
  const { countCap } = options;
  const [rows, counted] = await Promise.all([
    source.rows({ limit: page.limit, offset: page.offset }),
    source.count(countCap),
  ]);
  const isCapped = countCap !== undefined && counted > countCap;
  setPaginationHeaders(c, page, isCapped ? countCap : counted);
  if (isCapped) c.header(TOTAL_NUMBER_IS_CAPPED_HEADER, 'true');
  return rows;
}

/**
 * {@link listPage} with the reference's optional pagination: without `page` and `page_size`, every row (at most
 * {@link UNPAGINATED_ROW_LIMIT}, else 400 `guard.pagination_required`) and no pagination headers; with either, a page.
 */
export async function listOptionalPage<Row>(
  c: Context<AppEnv>,
  source: ListSource<Row>,
  query: PaginationQuery,
): Promise<Row[]> {
  if (!asksForAllRows(query)) return listPage(c, source, query);
  const rows = await source.rows({ limit: UNPAGINATED_ROW_LIMIT + 1 });
  if (rows.length > UNPAGINATED_ROW_LIMIT) {
    throw new ApiError(400, 'guard.pagination_required', { maxRows: UNPAGINATED_ROW_LIMIT });
  }
  return rows;
}

/**
 * Registers a generated route (`relation-routes.ts`, `entity-routes.ts`). Its handler cannot be checked against the
 * route's own response schemas by the compiler (they are generic there), so it is typed by its validated input only;
 * the generators type what their declarations answer, and the route tests and the OpenAPI check hold the answers to
 * their schemas.
 */
export function mountRoute<Out extends Input['out']>(
  router: OpenAPIHono<AppEnv>,
  route: RouteConfig,
  hook: typeof searchSyntaxHook | undefined,
  handler: (c: Context<AppEnv, string, { out: Out }>) => Promise<Response>,
): void {
  if (hook) router.openapi(route, handler as never, hook as never);
  else router.openapi(route, handler as never);
}
