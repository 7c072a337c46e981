import { sentinelActivitiesDeleteSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { deleteSentinelActivities } from '../services/sentinel-activities.ts';

/** The reference's unlock of identifiers held by the sign-in lockout (its "sentinel activities"). */

const unlock = createRoute({
  method: 'post',
  path: '/sentinel-activities/delete',
  tags: ['Sign-in experience'],
  summary: 'Unlock identifiers locked by the sign-in lockout',
  description:
    'For `targetType: "User"`, each target is a username, email address or phone number as typed at sign-in, or a ' +
    'user id: the failed attempts counted against it (and against the user it names: passwords and second factors) ' +
    'stop counting, so it can sign in at once. The audit log keeps the attempts. Targets naming nothing are ignored. ' +
    '`App` targets are accepted and unlock nothing: Gatehouse locks no application.',
  request: { body: jsonBody(sentinelActivitiesDeleteSchema) },
  responses: { 204: { description: 'Unlocked.' }, ...errorResponses },
});

export const sentinelActivitiesRoutes = createRouter().openapi(unlock, async (c) => {
  await deleteSentinelActivities(writeContext(c), c.req.valid('json'));
  return c.body(null, 204);
});
