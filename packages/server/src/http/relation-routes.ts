import { DomainError, type ErrorCode, type PaginationQuery, rowNotFound } from '@gatehouse/schemas';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { allOf } from '../db/conditions.ts';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';
import { tableList } from '../services/list-query.ts';
import type { IdSet } from '../services/organization-relations.ts';
import {
  changeRelation,
  inRelation,
  type Relation,
  type RelationResult,
  type RelationState,
} from '../services/relations.ts';
import type { AppEnv } from '../shared/app-env.ts';
import {
  createRouter,
  type errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  listPage,
  mountRoute,
  notFoundResponse,
  optionalPaginatedHeaders,
  paginatedHeaders,
  searchSyntaxHook,
} from './route-kit.ts';
import { writeContext } from './write-context.ts';

/**
 * Relation routes generated from one declaration (after Logto's SchemaRouter): given the owner's path and
 * params, the related entity and the link rows, it mounts under `path`
 *   GET    path              list the related rows (pagination, `q`/`search`), 404 without the owner
 *   POST   path              add many (201)
 *   PUT    path              replace the set (204, or 200 with an answer or as the reference's empty 200)
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
  /**
   * The condition of the keyword (`q` or `search`, or the reference's search syntax), or undefined without one; given
   * with the table, order and answer by a service's related rows (`services/relation-rows.ts`), so this generic router
   * knows no domain and the route module names no table.
   */
  search: (query: z.output<Q>) => SQL | undefined;
  /**
   * The query takes the reference's search syntax (`search.<field>`, `mode`, `joint`, …): its syntax errors answer 400
   * `request.invalid_input`, as the reference's search parser does (`searchSyntaxHook`).
   */
  searchSyntax?: boolean;
  orderBy: SQL[];
  /** The rows to list when they are not simply the linked ones (e.g. a filter by role); undefined: the linked ones. */
  rows?: (tenant: TenantDb, params: P, query: z.output<Q>) => SQL | undefined;
  toApi: (tenant: TenantDb, rows: R['$inferSelect'][], params: P) => unknown[] | Promise<unknown[]>;
  /** Answers beyond 400/401/403/404 (e.g. an owner of the wrong type). */
  errors?: ErrorAnswers;
  /** The reference's optional pagination: without `page` and `page_size`, every row and no `Total-Number`. */
  pagination?: 'optional';
};

/**
 * What an add or replace answers: a description of the empty success, or a JSON body made from the result (and the
 * request's body, for answers that echo it, or what the tenant holds after the change, for answers that read it).
 */
type Answer<S, B = unknown, P = Record<string, string>> =
  | string
  | {
      schema: z.ZodType;
      description: string;
      of: (result: RelationResult<S>, body: B, after: { tenant: TenantDb; params: P }) => unknown;
    };

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
  answer: Answer<S, z.output<B>, P>;
  /**
   * The status of an empty replace answer: 204 unless the reference answers 200 without a body (its `PUT
   * /users/{id}/roles` and `/applications/{id}/roles`).
   */
  emptyStatus?: 200 | 204;
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
  remove?: RelationRemove;
};

/**
 * Removes one: `DELETE path/{param}`. A link that is not there is 404 `entity.not_found` (the reference's deletion
 * miss); so is an unknown owner, since the reference deletes the link without looking its owner up, unless
 * `findsOwner` says the reference route does (then the owner's own 404, e.g. `entity.not_exists_with_id`).
 */
export type RelationRemove = {
  summary: string;
  param: string;
  schema: z.ZodType<string>;
  errors?: ErrorAnswers;
  findsOwner?: boolean;
};

/**
 * The common `accept`: runs the domain's `check` on the ids of the body's `field` (it throws 404/422) and
 * writes those ids.
 */
export function idsIn<F extends string, O>(
  field: F,
  check: (tx: TenantDb, ids: readonly string[], owner: O, config: Config) => Promise<unknown>,
) {
  return async (input: { tx: TenantDb; owner: O; body: Record<F, readonly string[]>; config: Config }) => {
    const ids = input.body[field];
    await check(input.tx, ids, input.owner, input.config);
    return ids;
  };
}

/** The common `owner`: the entity the path's `id` names, found by the domain's `find` (which throws its 404). */
export function ownerById<O>(find: (tx: TenantDb, id: string) => Promise<O>) {
  return (tx: TenantDb, { id }: { id: string }) => find(tx, id);
}

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
  const router = createRouter();
  if (def.list) mountList(router, def, def.list);
  if (!def.add && !def.replace && !def.remove) return router;
  // A misdeclared relation fails when the app is assembled, not on its first request.
  if (!def.links || !def.audit) throw new Error(`${def.path}: a relation with writes needs links and audit`);
  const relation: Relation<z.output<PS>, O, T, S> = {
    owner: def.owner,
    links: def.links,
    audit: def.audit,
    events: def.events,
  };
  // The body types are erased from here on: each `accept` was checked against its own body schema.
  if (def.add) mountWrite(router, def, relation, 'add', def.add as RelationWriteRoute<z.output<PS>, O, S, z.ZodType>);
  if (def.replace)
    mountWrite(router, def, relation, 'replace', def.replace as RelationWriteRoute<z.output<PS>, O, S, z.ZodType>);
  if (def.remove) mountRemove(router, def, relation, def.remove);
  return router;
}

type Mounted<PS extends ParamsSchema> = { tags: string[]; path: string; params: PS };

function mountList<PS extends ParamsSchema, O, T extends TenantTable, R extends TenantTable, Q extends QuerySchema>(
  router: OpenAPIHono<AppEnv>,
  def: Mounted<PS> & {
    owner: (tx: TenantDb, params: z.output<PS>) => Promise<O>;
    links?: ((params: z.output<PS>) => IdSet<T>) | undefined;
  },
  list: RelationList<z.output<PS>, R, Q>,
): void {
  const route = createRoute({
    method: 'get',
    path: def.path,
    tags: def.tags,
    summary: list.summary,
    ...(list.description ? { description: list.description } : {}),
    request: { params: def.params, query: list.query },
    responses: {
      200: {
        ...jsonResponse(list.item.array(), list.page),
        headers: list.pagination === 'optional' ? optionalPaginatedHeaders : paginatedHeaders,
      },
      ...errorResponses,
      ...notFoundResponse,
      ...list.errors,
    },
  });
  const hook = list.searchSyntax ? searchSyntaxHook : undefined;
  mountRoute<{ param: z.output<PS>; query: z.output<Q> }>(router, route, hook, async (c) => {
    const params = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await def.owner(tenant, params);
    const rows = list.rows?.(tenant, params, query) ?? linked(tenant, list.id, def, params);
    const search = list.search(query);
    const readList = list.pagination === 'optional' ? listOptionalPage : listPage;
    const source = tableList(tenant, list.related, {
      where: search ? allOf(rows, search) : rows,
      orderBy: list.orderBy,
    });
    const page = await readList(c, source, query);
    return c.json(await list.toApi(tenant, page, params), 200);
  });
}

/** POST (add, 201) or PUT (replace: 204, or 200 with an answer) of the owner's set. */
function mountWrite<PS extends ParamsSchema, O, T extends TenantTable, S extends RelationState>(
  router: OpenAPIHono<AppEnv>,
  def: Mounted<PS> & { add?: { exists?: ErrorCode } | undefined },
  relation: Relation<z.output<PS>, O, T, S>,
  kind: 'add' | 'replace',
  op: RelationWriteRoute<z.output<PS>, O, S, z.ZodType>,
): void {
  const { answer } = op;
  const status = kind === 'add' ? 201 : typeof answer === 'string' ? (op.emptyStatus ?? 204) : 200;
  const route = createRoute({
    method: kind === 'add' ? 'post' : 'put',
    path: def.path,
    tags: def.tags,
    summary: op.summary,
    request: { params: def.params, body: jsonBody(op.body) },
    responses: {
      [status]: typeof answer === 'string' ? { description: answer } : jsonResponse(answer.schema, answer.description),
      ...errorResponses,
      ...op.errors,
    },
  });
  const exists = kind === 'add' ? def.add?.exists : undefined;
  mountRoute<{ param: z.output<PS>; json: unknown }>(router, route, undefined, async (c) => {
    const params = c.req.valid('param');
    const body = c.req.valid('json');
    const config = c.get('config');
    const result = await changeRelation(writeContext(c), relation, params, async (tx, owner) => {
      const ids = await op.accept({ tx, owner, body, params, config });
      return kind === 'add' ? { kind, ids, exists } : { kind, ids };
    });
    if (typeof answer === 'string') return c.body(null, status as 200 | 201 | 204);
    const answered = await answer.of(result, body, { tenant: c.get('tenant'), params });
    return c.json(answered as object, status as 201 | 200);
  });
}

/** DELETE path/{param}: takes one id out of the owner's set (404 when it is not in it). */
function mountRemove<PS extends ParamsSchema, O, T extends TenantTable, S extends RelationState>(
  router: OpenAPIHono<AppEnv>,
  def: Mounted<PS>,
  relation: Relation<z.output<PS>, O, T, S>,
  remove: RelationRemove,
): void {
  const route = createRoute({
    method: 'delete',
    path: `${def.path}/{${remove.param}}`,
    tags: def.tags,
    summary: remove.summary,
    request: { params: def.params.extend({ [remove.param]: remove.schema }) },
    responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse, ...remove.errors },
  });
  mountRoute<{ param: z.output<PS> & Record<string, string> }>(router, route, undefined, async (c) => {
    const params = c.req.valid('param');
    const id = params[remove.param] as string;
    await changeRelation(writeContext(c), relation, params, async () => ({ kind: 'remove', id })).catch(
      (error: unknown) => {
        const ownerMissing = error instanceof DomainError && error.code === 'entity.not_exists_with_id';
        throw ownerMissing && !remove.findsOwner ? rowNotFound() : error;
      },
    );
    return c.body(null, 204);
  });
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
