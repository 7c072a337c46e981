import type { PaginationQuery } from '@gatehouse/schemas';
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { ListSource } from '../services/list-query.ts';
import type { WriteContext } from '../services/write-path.ts';
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
 * Entity routes generated from one declaration, as the relation routes are (`relation-routes.ts`): given the
 * collection's path (and its params, for an entity under an owner) and the item's id param, it mounts
 *   GET    path         list (`Total-Number`/`Link`; optionally paginated: every row without `page`/`page_size`)
 *   POST   path         create (200 or 201, as the reference answers)
 *   GET    path/{id}    get (404 by default)
 *   PATCH  path/{id}    update (404 by default)
 *   DELETE path/{id}    delete (204, 404 by default)
 * with their OpenAPI, in that order, for the operations the declaration has. Each operation calls its service
 * function: the domain (the audit key, the events, the 404/422 of the write path) stays in services/; the list reads a
 * service's {@link ListSource}, so the route module names no table. The routes a declaration has beyond these (a
 * rotation, a status) are chained on the returned router.
 */

type ParamsSchema = z.ZodObject<Record<string, z.ZodType<string>>>;
type ErrorAnswers = Record<number, ReturnType<typeof errorResponse>>;
/** A list's query: pagination and its filters. */
type QuerySchema = z.ZodType<PaginationQuery> & z.ZodObject;
type Answer<A extends z.ZodType> = { schema: A; description: string };

/** What a generated route hands its service call. */
export type EntityRequest<P> = {
  /** The validated path params. */
  params: P;
  /** The request's tenant (reads). */
  tenant: TenantDb;
  config: Config;
  /** The write context of the request (writes: the service's `performWrite` audits and emits). */
  write: () => WriteContext;
  /** The request itself, for what else a service takes from it (its language, the public URL). */
  c: Context<AppEnv>;
};

type Documented = {
  summary: string;
  description?: string;
  /** Answers beyond 400/401/403 (item operations: 404 `entity.not_exists_with_id` unless given). */
  errors?: ErrorAnswers;
};

export type EntityList<P, Q extends QuerySchema, Row, I extends z.ZodType> = Documented & {
  query: Q;
  /** The query takes the reference's search syntax: its syntax errors answer 400 `request.invalid_input`. */
  searchSyntax?: boolean;
  /** The reference's optional pagination: without `page` and `page_size`, every row and no `Total-Number`. */
  pagination?: 'optional';
  /** One answered row, and what a page of them is. */
  item: Answer<I>;
  /** The service's list (after checking the owner, for an entity under one). */
  rows: (request: EntityRequest<P>, query: z.output<Q>) => ListSource<Row> | Promise<ListSource<Row>>;
  /** The answered rows. */
  toApi: (rows: Row[], request: EntityRequest<P>, query: z.output<Q>) => z.input<I>[] | Promise<z.input<I>[]>;
};

export type EntityCreate<P, B extends z.ZodType, A extends z.ZodType> = Documented & {
  body: B;
  /** 201, or 200 where the reference answers a creation so. */
  status: 200 | 201;
  answer: Answer<A>;
  run: (request: EntityRequest<P>, body: z.output<B>) => Promise<z.input<A>>;
};

export type EntityGet<P, Q extends z.ZodObject, A extends z.ZodType> = Documented & {
  /** Query parameters of the read (e.g. what to attach). */
  query?: Q;
  answer: Answer<A>;
  run: (request: EntityRequest<P>, query: z.output<Q>) => Promise<z.input<A>>;
};

export type EntityPatch<P, B extends z.ZodType, A extends z.ZodType> = Documented & {
  body: B;
  answer: Answer<A>;
  run: (request: EntityRequest<P>, body: z.output<B>) => Promise<z.input<A>>;
};

export type EntityDelete<P> = Documented & {
  run: (request: EntityRequest<P>) => Promise<unknown>;
};

export type EntityRoutes<
  CP extends ParamsSchema,
  K extends string,
  LQ extends QuerySchema,
  Row,
  LI extends z.ZodType,
  CB extends z.ZodType,
  CA extends z.ZodType,
  GQ extends z.ZodObject,
  GA extends z.ZodType,
  PB extends z.ZodType,
  PA extends z.ZodType,
> = {
  tags: string[];
  /** The collection's path, e.g. `/roles` or `/resources/{id}/scopes`. */
  path: string;
  /** The collection path's params (an entity under an owner), e.g. the resource's `id`. */
  params?: CP;
  /** The item's id param: the item path is `path/{param}`. */
  id: { param: K; schema: z.ZodType<string> };
  list?: EntityList<z.output<CP>, LQ, Row, LI>;
  create?: EntityCreate<z.output<CP>, CB, CA>;
  get?: EntityGet<ItemParams<CP, K>, GQ, GA>;
  patch?: EntityPatch<ItemParams<CP, K>, PB, PA>;
  delete?: EntityDelete<ItemParams<CP, K>>;
};

type ItemParams<CP extends ParamsSchema, K extends string> = z.output<CP> & Record<K, string>;

/** Mounts the declared entity's routes on a new router (mount it in routes/index.ts, or chain its other routes). */
export function entityRoutes<
  CP extends ParamsSchema,
  K extends string,
  LQ extends QuerySchema,
  Row,
  LI extends z.ZodType,
  CB extends z.ZodType,
  CA extends z.ZodType,
  GQ extends z.ZodObject,
  GA extends z.ZodType,
  PB extends z.ZodType,
  PA extends z.ZodType,
>(def: EntityRoutes<CP, K, LQ, Row, LI, CB, CA, GQ, GA, PB, PA>): OpenAPIHono<AppEnv> {
  const router = createRouter();
  const itemPath = `${def.path}/{${def.id.param}}`;
  const itemParams = (def.params ?? z.object({})).extend({ [def.id.param]: def.id.schema });
  const collectionParams = def.params ? { params: def.params } : {};
  const route = (
    method: RouteConfig['method'],
    path: string,
    op: Documented,
    rest: Omit<RouteConfig, 'method' | 'path'>,
  ) =>
    createRoute({
      method,
      path,
      tags: def.tags,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...rest,
    });

  const { list, create, get, patch } = def;
  if (list) {
    const config = route('get', def.path, list, {
      request: { ...collectionParams, query: list.query },
      responses: {
        200: {
          ...jsonResponse(z.array(list.item.schema), list.item.description),
          headers: list.pagination === 'optional' ? optionalPaginatedHeaders : paginatedHeaders,
        },
        ...errorResponses,
        ...list.errors,
      },
    });
    const readList = list.pagination === 'optional' ? listOptionalPage : listPage;
    mountRoute<{ param: z.output<CP>; query: z.output<LQ> }>(
      router,
      config,
      list.searchSyntax ? searchSyntaxHook : undefined,
      async (c) => {
        const query = c.req.valid('query');
        const request = requestOf(c, (def.params ? c.req.valid('param') : {}) as z.output<CP>);
        const rows = await readList(c, await list.rows(request, query), query);
        return c.json(await list.toApi(rows, request, query), 200);
      },
    );
  }
  if (create) {
    const config = route('post', def.path, create, {
      request: { ...collectionParams, body: jsonBody(create.body) },
      responses: {
        [create.status]: jsonResponse(create.answer.schema, create.answer.description),
        ...errorResponses,
        ...create.errors,
      },
    });
    mountRoute<{ param: z.output<CP>; json: z.output<CB> }>(router, config, undefined, async (c) => {
      const request = requestOf(c, (def.params ? c.req.valid('param') : {}) as z.output<CP>);
      return c.json((await create.run(request, c.req.valid('json'))) as object, create.status);
    });
  }
  if (get) {
    const config = route('get', itemPath, get, {
      request: { params: itemParams, ...(get.query ? { query: get.query } : {}) },
      responses: {
        200: jsonResponse(get.answer.schema, get.answer.description),
        ...errorResponses,
        ...(get.errors ?? notFoundResponse),
      },
    });
    mountRoute<{ param: ItemParams<CP, K>; query: z.output<GQ> }>(router, config, undefined, async (c) => {
      const query = (get.query ? c.req.valid('query') : {}) as z.output<GQ>;
      return c.json((await get.run(requestOf(c, c.req.valid('param')), query)) as object, 200);
    });
  }
  if (patch) {
    const config = route('patch', itemPath, patch, {
      request: { params: itemParams, body: jsonBody(patch.body) },
      responses: {
        200: jsonResponse(patch.answer.schema, patch.answer.description),
        ...errorResponses,
        ...(patch.errors ?? notFoundResponse),
      },
    });
    mountRoute<{ param: ItemParams<CP, K>; json: z.output<PB> }>(router, config, undefined, async (c) => {
      return c.json((await patch.run(requestOf(c, c.req.valid('param')), c.req.valid('json'))) as object, 200);
    });
  }
  const remove = def.delete;
  if (remove) {
    const config = route('delete', itemPath, remove, {
      request: { params: itemParams },
      responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...(remove.errors ?? notFoundResponse) },
    });
    mountRoute<{ param: ItemParams<CP, K> }>(router, config, undefined, async (c) => {
      await remove.run(requestOf(c, c.req.valid('param')));
      return c.body(null, 204);
    });
  }
  return router;
}

function requestOf<P>(c: Context<AppEnv>, params: P): EntityRequest<P> {
  return { params, tenant: c.get('tenant'), config: c.get('config'), write: () => writeContext(c), c };
}
