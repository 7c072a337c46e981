import { type OidcKeyType, oidcKeyRotateSchema, oidcKeySchema, oidcKeyTypes } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { createRouter, errorResponse, errorResponses, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as oidcKeys from '../services/oidc-keys.ts';
import type { AppEnv } from '../shared/app-env.ts';

const tags = ['Signing keys'];
const keyTypeParams = z.object({
  keyType: z.enum(oidcKeyTypes).meta({ description: 'OIDC private signing keys or cookie-signing keys.' }),
});
const keyList = z.array(oidcKeySchema);
const listKeys = createRoute({
  method: 'get',
  path: '/configs/oidc/{keyType}',
  tags,
  summary: 'List the OIDC keys of a type, current first (no key material)',
  request: { params: keyTypeParams },
  responses: { 200: jsonResponse(keyList, 'The keys, newest (current) first.'), ...errorResponses },
});

const rotateKeys = createRoute({
  method: 'post',
  path: '/configs/oidc/{keyType}/rotate',
  tags,
  summary: 'Rotate the OIDC keys of a type',
  description:
    'A new key becomes current; the key that was current stays as the previous one (published in the JWKS, ' +
    'still verifying cookies) and older keys are removed, so at most two keys remain. Takes effect in every ' +
    'server process without a restart.',
  request: {
    params: keyTypeParams,
    body: { required: false, content: { 'application/json': { schema: oidcKeyRotateSchema } } },
  },
  responses: { 200: jsonResponse(keyList, 'The keys after the rotation.'), ...errorResponses },
});

const deleteKey = createRoute({
  method: 'delete',
  path: '/configs/oidc/{keyType}/{keyId}',
  tags,
  summary: 'Delete a previous OIDC key',
  request: { params: keyTypeParams.extend({ keyId: z.string().min(1).max(64) }) },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    ...notFoundResponse,
    422: errorResponse('The key is the current one, which signs (`oidc.key_required`): rotate first.'),
  },
});

/** This process's caches drop the tenant's keys and provider at once; other processes get the change notice. */
function forgetCachedKeys(c: Context<AppEnv>, keyType: OidcKeyType): void {
  const { tenantId } = c.get('tenant');
  c.get('notices')?.changedHere({ kind: 'signing-keys', tenantId });
  if (keyType === 'private-keys') c.get('keys')?.forget(tenantId);
}

export const signingKeysRoutes = createRouter()
  .openapi(listKeys, async (c) => {
    const { keyType } = c.req.valid('param');
    return c.json(await oidcKeys.listOidcKeys(c.get('tenant'), keyType), 200);
  })
  .openapi(rotateKeys, async (c) => {
    const { keyType } = c.req.valid('param');
    const keys = await oidcKeys.rotateKeys(writeContext(c), keyType, c.req.valid('json'));
    forgetCachedKeys(c, keyType);
    return c.json(keys, 200);
  })
  .openapi(deleteKey, async (c) => {
    const { keyType, keyId } = c.req.valid('param');
    await oidcKeys.removeKey(writeContext(c), keyType, keyId);
    forgetCachedKeys(c, keyType);
    return c.body(null, 204);
  });
