import { accountDeletionPreviewSchema, meDeleteSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { ApiError } from '../http/errors.ts';
import { createRouter, errorResponse, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import type { AccountDeletion } from '../services/me-delete.ts';

/** The 'me' API's account deletion (cloud edition), mounted with the rest of 'me' by app.ts. */

const tags = ['Me'];

const deletionPreview = createRoute({
  method: 'get',
  path: '/deletion-preview',
  tags,
  summary: 'What deleting your account would do (cloud edition)',
  description:
    'The tenants deleted with all their data (you are their only admin), the tenants you would leave, and what ' +
    'blocks the deletion: a tenant to delete with a plan other than Free or Development, a subscription that is not ' +
    'active, open invoices, or a built-in tenant. DELETE / applies the same rules.',
  responses: {
    200: jsonResponse(accountDeletionPreviewSchema, 'Oldest tenant first; no blockers means the account can go.'),
    ...errorResponses,
  },
});

const deleteMe = createRoute({
  method: 'delete',
  path: '/',
  tags,
  summary: 'Delete your account (cloud edition)',
  description:
    'Deletes the tenants you alone administer with all their data, leaves the others, then deletes the account with ' +
    'its sessions, grants, tokens, factors and identities, in one transaction. Needs a fresh proof of the password ' +
    'when the account has one. The client signs out afterwards.',
  request: { body: { ...jsonBody(meDeleteSchema), required: false } },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    422: errorResponse(
      'The proof of the password is missing or stale (`verification_record.invalid`), or a tenant to delete blocks ' +
        'the deletion (`user.delete_blocked`, `data.blockers` as in GET /deletion-preview).',
    ),
  },
});

export type MeDeletionDeps = {
  keys: SigningKeyStore;
  /** The cloud edition's account deletion; OSS has none. */
  accountDeletion: AccountDeletion | undefined;
};

/**
 * Deleting the account (issue 42), cloud edition only. OSS answers both paths 404 `route.not_found`, as it answers
 * the cloud API, and leaves them out of its OpenAPI document: without these answers the request would fall through
 * to the management API, whose token check would refuse a 'me' token with a 401 that means "sign in again".
 */
export function meDeletionRoutes({ keys, accountDeletion }: MeDeletionDeps) {
  if (!accountDeletion) {
    const absent = () => {
      throw new ApiError(404, 'route.not_found');
    };
    return createRouter({ undeclaredKeys: 'refuse' }).get('/deletion-preview', absent).delete('/', absent);
  }
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(deletionPreview, async (c) => c.json(await accountDeletion.preview(c.get('auth').actor.id), 200))
    .openapi(deleteMe, async (c) => {
      const { tenant: _admin, ...ctx } = writeContext(c);
      await accountDeletion.delete(ctx, keys, c.req.valid('json'));
      return c.body(null, 204);
    });
}
