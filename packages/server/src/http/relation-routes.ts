import type { ErrorCode, PaginationQuery } from '@gatehouse/schemas';
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Context, Input } from 'hono';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { allOf } from '../db/conditions.ts';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';
import type { IdSet } from '../services/organization-relations.ts';
import { keywordCondition } from '../services/organizations.ts';
import {
  changeRelation,
  inRelation,
  type Relation,
  type RelationResult,
  type RelationState,
} from '../services/relations.ts';
import type { AppEnv } from './context.ts';
import {
  createRouter,
  type errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from './route-kit.ts';
import { writeContext } from './write-context.ts';

/**
 * Relation routes generated from one declaration (after Logto's SchemaRouter): given the owner's path and
 * params, the related entity and the link rows, it mounts under `path`
 *   GET    path              list the related rows (pagination, `q`/`search`), 404 without the owner
 *   POST   path              add many (201)
 *   PUT    path              replace the set (204, or 200 with an answer)
 *   DELETE path/{item}       remove one (204, 404 when not linked)
 * with their OpenAPI. Every write takes {@link changeRelation}: one transaction, audit entry and events.
 * The domain rules (which ids are acceptable, 404/422) are the declaration's `accept`, from the services.
 */

type ParamsSchema = z.ZodObject<Record<string, z.ZodType<string>>>;
type KeywordQuery = PaginationQuery & { q?: string | undefined; search?: string | undefined };
/** A list's query: pagination and the keyword (`q` or `search`). */
type QuerySchema = z.ZodObject & z.ZodType<KeywordQuery>;
type ErrorAnswers = Record<number, ReturnType<typeof errorResponse>>;

export type RelationList<P, R extends TenantTable, Q extends QuerySchema> = {
  summary: string;
  description?: string;
  query: Q;
  /** The schema of one answered row, and what a page of them is. */
  item: z.ZodType;
  page: string;
  related: R;
  /** The related table's id column (what the link rows point at). */
  id: PgColumn;
  /** The columns `q`/`search` matches (substring, any case). */
  search: PgColumn[];
  orderBy: SQL[];
  /** The rows to list when they are not simply the linked ones (e.g. a filter by role); undefined: the linked ones. */
  rows?: (tenant: TenantDb, params: P, query: z.output<Q>) => SQL | undefined;
  toApi: (tenant: TenantDb, rows: R['$inferSelect'][], params: P) => unknown[] | Promise<unknown[]>;
};

/** What an add or replace answers: a description of the empty success, or a JSON body made from the result. */
type Answer<S> = string | { schema: z.ZodType; description: string; of: (result: RelationResult<S>) => unknown };

export type RelationWriteRoute<P, O, S, B extends z.ZodType> = {
  summary: string;
  body: B;
  /** The domain rules: validates the ids of the body (404/422 as the services say) and answers the ids to write. */
  accept: (input: {
    tx: TenantDb;
    owner: O;
    body: z.output<B>;
    params: P;
    config: Config;
  }) => Promise<readonly string[]>;
  answer: Answer<S>;
  errors: ErrorAnswers;
};

export type RelationRoutes<
  PS extends ParamsSchema,
  O,
  T extends TenantTable,
  S extends RelationState,
  R extends TenantTable,
  Q extends QuerySchema,
  AB extends z.ZodType,
  RB extends z.ZodType,
> = Omit<Relation<z.output<PS>, O, T, S>, 'links' | 'audit'> & {
  tags: string[];
  /** The relation's path under its owner, e.g. `/roles/{id}/scopes`. */
  path: string;
  /** The owner's path params. */
  params: PS;
  /** Required with any write (and for the default list). */
  links?: (params: z.output<PS>) => IdSet<T>;
  audit?: Relation<z.output<PS>, O, T, S>['audit'];
  list?: RelationList<z.output<PS>, R, Q>;
  /** Adds many; `exists` makes ids already linked a 422 with that code (without it they stay as they are). */
  add?: RelationWriteRoute<z.output<PS>, O, S, AB> & { exists?: ErrorCode };
  replace?: RelationWriteRoute<z.output<PS>, O, S, RB>;
  /** Removes one: `DELETE path/{param}`. */
  remove?: { summary: string; param: string; schema: z.ZodType<string> };
};

/** Mounts the declared relation's routes on a new router (mount it where its owner's routes are). */
export function relationRoutes<
  PS extends ParamsSchema,
  O,
  T extends TenantTable,
  S extends RelationState,
  R extends TenantTable,
  Q extends QuerySchema,
  AB extends z.ZodType,
  RB extends z.ZodType,
>(def: RelationRoutes<PS, O, T, S, R, Q, AB, RB>): OpenAPIHono<AppEnv> {
  type P = z.output<PS>;
  const router = createRouter();
  const { tags, path, params } = def;
  const relation = (): Relation<P, O, T, S> => {
    if (!def.links || !def.audit) throw new Error(`${path}: a relation with writes needs links and audit`);
    return { owner: def.owner, links: def.links, audit: def.audit, events: def.events };
  };

  const { list } = def;
  if (list) {
    const route = createRoute({
      method: 'get',
      path,
      tags,
      summary: list.summary,
      ...(list.description ? { description: list.description } : {}),
      request: { params, query: list.query },
      responses: {
        200: { ...jsonResponse(list.item.array(), list.page), headers: paginatedHeaders },
        ...errorResponses,
        ...notFoundResponse,
      },
    });
    mount<{ param: P; query: z.output<Q> }>(router, route, async (c) => {
      const ownerParams = c.req.valid('param');
      const query = c.req.valid('query');
      const tenant = c.get('tenant');
      await def.owner(tenant, ownerParams);
      const rows = list.rows?.(tenant, ownerParams, query) ?? linked(tenant, list.id, def, ownerParams);
      const search = keywordCondition(query, list.search);
      const page = await listPage(c, list.related, query, {
        where: search ? allOf(rows, search) : rows,
        orderBy: list.orderBy,
      });
      return c.json(await list.toApi(tenant, page, ownerParams), 200);
    });
  }

  const write = (method: 'post' | 'put', op: RelationWriteRoute<P, O, S, z.ZodType>, kind: 'add' | 'replace') => {
    const success = kind === 'add' ? 201 : typeof op.answer === 'string' ? 204 : 200;
    const route = createRoute({
      method,
      path,
      tags,
      summary: op.summary,
      request: { params, body: jsonBody(op.body) },
      responses: {
        [success]:
          typeof op.answer === 'string'
            ? { description: op.answer }
            : jsonResponse(op.answer.schema, op.answer.description),
        ...errorResponses,
        ...op.errors,
      },
    });
    const exists = kind === 'add' ? def.add?.exists : undefined;
    mount<{ param: P; json: unknown }>(router, route, async (c) => {
      const ownerParams = c.req.valid('param');
      const body = c.req.valid('json');
      const config = c.get('config');
      const result = await changeRelation(writeContext(c), relation(), ownerParams, async (tx, owner) => {
        const ids = await op.accept({ tx, owner, body, params: ownerParams, config });
        return kind === 'add' ? { kind, ids, exists } : { kind, ids };
      });
      if (typeof op.answer === 'string') return c.body(null, success as 201 | 204);
      return c.json(op.answer.of(result) as object, success as 201 | 200);
    });
  };
  // The declaration's body type is erased here; each `accept` was checked against its own body schema.
  if (def.add) write('post', def.add as RelationWriteRoute<P, O, S, z.ZodType>, 'add');
  if (def.replace) write('put', def.replace as RelationWriteRoute<P, O, S, z.ZodType>, 'replace');

  const { remove } = def;
  if (remove) {
    const route = createRoute({
      method: 'delete',
      path: `${path}/{${remove.param}}`,
      tags,
      summary: remove.summary,
      request: { params: params.extend({ [remove.param]: remove.schema }) },
      responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
    });
    mount<{ param: P & Record<string, string> }>(router, route, async (c) => {
      const all = c.req.valid('param');
      const id = all[remove.param] as string;
      await changeRelation(writeContext(c), relation(), all, async () => ({ kind: 'remove', id }));
      return c.body(null, 204);
    });
  }
  return router;
}

/** The related rows linked to the owner: `id IN (SELECT <link column> FROM <links> WHERE <owner>)`. */
function linked<P, T extends TenantTable>(
  tenant: TenantDb,
  id: PgColumn,
  def: { path: string; links?: ((params: P) => IdSet<T>) | undefined },
  params: P,
): SQL {
  if (!def.links) throw new Error(`${def.path}: a list without links needs its own rows`);
  const links = def.links(params);
  return inRelation(tenant, id, links.table, links.column, links.owner);
}

/**
 * Registers a generated route. Its handler cannot be checked against the route's own response schemas by
 * the compiler (they are generic here), so it is typed by its validated input only; the relation tests and
 * the OpenAPI check hold the answers to their schemas.
 */
function mount<Out extends Input['out']>(
  router: OpenAPIHono<AppEnv>,
  route: RouteConfig,
  handler: (c: Context<AppEnv, string, { out: Out }>) => Promise<Response>,
): void {
  router.openapi(route, handler as never);
}
