import { activeUsersSchema, DAU_CURVE_DAYS, newUsersSchema, totalUsersSchema, utcDaySchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, jsonResponse } from '../http/route-kit.ts';
import { activeUsersReport, newUsersReport, utcDay } from '../services/daily-active-users.ts';
import { countTenantUsers } from '../services/user-search.ts';

const tags = ['Dashboard'];

const getTotalUsers = createRoute({
  method: 'get',
  path: '/dashboard/users/total',
  tags,
  summary: 'Count all users of the tenant',
  description: "Read from the tenant's user counter (exact, a few rows read whatever the number of users).",
  responses: { 200: jsonResponse(totalUsersSchema, 'The number of users.'), ...errorResponses },
});

const getNewUsers = createRoute({
  method: 'get',
  path: '/dashboard/users/new',
  tags,
  summary: 'Count new users',
  description:
    'Users created today and in the last 7 days (UTC calendar days, today included), each with its change ' +
    '(`delta`) from the period just before: yesterday, and the 7 days before those.',
  responses: { 200: jsonResponse(newUsersSchema, 'New users with deltas.'), ...errorResponses },
});

const getActiveUsers = createRoute({
  method: 'get',
  path: '/dashboard/users/active',
  tags,
  summary: 'Count active users',
  description:
    'Users who signed in, registered or were issued a token, by UTC day. `dau`, `wau` (7 days) and `mau` ' +
    '(30 days) end at `date`, each with its change from the period before; `dauCurve` has one point per day ' +
    `for the ${DAU_CURVE_DAYS} days ending at \`date\`.`,
  request: {
    query: z.object({
      date: utcDaySchema.optional().meta({ description: 'The last day counted, `YYYY-MM-DD` (UTC). Default: today.' }),
    }),
  },
  responses: { 200: jsonResponse(activeUsersSchema, 'Active-user counts and the daily curve.'), ...errorResponses },
});

export const dashboardRoutes = createRouter()
  .openapi(getTotalUsers, async (c) => c.json({ totalUserCount: await countTenantUsers(c.get('tenant')) }, 200))
  .openapi(getNewUsers, async (c) => c.json(await newUsersReport(c.get('tenant')), 200))
  .openapi(getActiveUsers, async (c) => {
    const day = c.req.valid('query').date ?? utcDay();
    return c.json(await activeUsersReport(c.get('tenant'), day), 200);
  });
