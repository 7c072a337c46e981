import { z } from 'zod';

/**
 * What a user allowed an application (an OIDC grant): the scopes, per API resource too, when, until when. Listed and
 * revoked from the user's detail page (reference `/users/{userId}/grants`).
 */
export const userGrantSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  application: z.object({ id: z.string(), name: z.string(), type: z.string(), isThirdParty: z.boolean() }).nullable(),
  scopes: z.array(z.string()),
  resourceScopes: z.record(z.string(), z.array(z.string())),
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
});
export type UserGrant = z.infer<typeof userGrantSchema>;
export const userGrantsQuerySchema = z.object({ appType: z.enum(['firstParty', 'thirdParty']).optional() });
