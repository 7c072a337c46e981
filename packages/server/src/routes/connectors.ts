import {
  connectorCreateSchema,
  connectorFactorySchema,
  connectorPatchSchema,
  connectorSchema,
  connectorTestSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as connectors from '../services/connectors.ts';

/** Connectors (issue 21, reference `/connector-factories`, `/connectors`): email and SMS senders. */

const tags = ['Connectors'];
const idParams = z.object({ id: z.string().min(1).max(128) });
const factoryParams = z.object({ factoryId: z.string().min(1).max(128) });

const listFactories = createRoute({
  method: 'get',
  path: '/connector-factories',
  tags,
  summary: 'The kinds of connector Gatehouse can make',
  responses: { 200: jsonResponse(z.array(connectorFactorySchema), 'The factories.'), ...errorResponses },
});

const getFactory = createRoute({
  method: 'get',
  path: '/connector-factories/{id}',
  tags,
  summary: 'One kind of connector',
  request: { params: idParams },
  responses: { 200: jsonResponse(connectorFactorySchema, 'The factory.'), ...errorResponses, ...notFoundResponse },
});

const listConnectors = createRoute({
  method: 'get',
  path: '/connectors',
  tags,
  summary: "The tenant's connectors (not paginated)",
  description: '`target` keeps one target. Confidential settings are masked.',
  request: { query: z.object({ target: z.string().max(128).optional() }) },
  responses: { 200: jsonResponse(z.array(connectorSchema), 'The connectors.'), ...errorResponses },
});

const createConnector = createRoute({
  method: 'post',
  path: '/connectors',
  tags,
  summary: 'Create a connector from a factory',
  description:
    'The config is checked against the factory’s form (`connector.invalid_config_guard`). A tenant has one email and ' +
    'one SMS connector: creating one replaces the current one.',
  request: { body: jsonBody(connectorCreateSchema) },
  responses: {
    200: jsonResponse(connectorSchema, 'The new connector.'),
    ...errorResponses,
    422: errorResponse(
      'The id is in use (`entity.unique_integrity_violation`) or no factory has that `connectorId` ' +
        '(`connector.not_found_with_connector_id`).',
    ),
  },
});

const getConnector = createRoute({
  method: 'get',
  path: '/connectors/{id}',
  tags,
  summary: 'Get a connector',
  request: { params: idParams },
  responses: { 200: jsonResponse(connectorSchema, 'The connector.'), ...errorResponses, ...notFoundResponse },
});

const patchConnector = createRoute({
  method: 'patch',
  path: '/connectors/{id}',
  tags,
  summary: 'Change a connector',
  description: 'A given config replaces the stored one; a confidential field sent back masked keeps its value.',
  request: { params: idParams, body: jsonBody(connectorPatchSchema) },
  responses: { 200: jsonResponse(connectorSchema, 'The connector.'), ...errorResponses, ...notFoundResponse },
});

const deleteConnector = createRoute({
  method: 'delete',
  path: '/connectors/{id}',
  tags,
  summary: 'Delete a connector',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const testConnector = createRoute({
  method: 'post',
  path: '/connectors/{factoryId}/test',
  tags,
  summary: 'Send a test message with a config (saved or not)',
  description:
    'A sample verification code to `email` (email connectors) or `phone` (SMS). The provider’s refusal is answered ' +
    'as `connector.*` (400) with its words in `data.detail`.',
  request: { params: factoryParams, body: jsonBody(connectorTestSchema) },
  responses: { 204: { description: 'Sent.' }, ...errorResponses, ...notFoundResponse },
});

export const connectorsRoutes = createRouter()
  .openapi(listFactories, (c) => c.json([...connectors.listConnectorFactories()], 200))
  .openapi(getFactory, (c) => c.json(connectors.getConnectorFactory(c.req.valid('param').id), 200))
  .openapi(listConnectors, async (c) =>
    c.json(await connectors.listConnectors(c.get('tenant'), c.req.valid('query').target), 200),
  )
  .openapi(createConnector, async (c) =>
    c.json(
      await connectors.createConnector(writeContext(c), { edition: c.get('config').edition }, c.req.valid('json')),
      200,
    ),
  )
  .openapi(getConnector, async (c) =>
    c.json(await connectors.getConnector(c.get('tenant'), c.req.valid('param').id), 200),
  )
  .openapi(patchConnector, async (c) =>
    c.json(await connectors.updateConnector(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(deleteConnector, async (c) => {
    await connectors.deleteConnector(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(testConnector, async (c) => {
    await connectors.testConnector(
      c.get('tenant'),
      c.get('delivery'),
      c.req.valid('param').factoryId,
      c.req.valid('json'),
    );
    return c.body(null, 204);
  });
