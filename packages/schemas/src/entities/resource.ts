import { z } from 'zod';
import { idSchema } from '../ids.ts';
import { scopeSchema } from './scope.ts';

export const resourceNameSchema = z.string().trim().min(1).max(256);

/**
 * RFC 8707: a resource indicator is an absolute URI without a fragment. It becomes the audience of
 * access tokens, so it is compared exactly and is unique per tenant.
 */
export const resourceIndicatorSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return !value.includes('#') && Boolean(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute URI without a fragment');

export { BUILT_IN_RESOURCE_DOMAIN, isBuiltInResourceIndicator } from './resource-indicators.ts';

/** Access-token lifetime in seconds: one second to one year, one hour by default. */
export const ACCESS_TOKEN_TTL_SECONDS = { min: 1, max: 31_536_000, default: 3600 } as const;
export const accessTokenTtlSchema = z
  .number()
  .int()
  .min(ACCESS_TOKEN_TTL_SECONDS.min)
  .max(ACCESS_TOKEN_TTL_SECONDS.max);

export const resourceSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  indicator: z.string(),
  isDefault: z.boolean(),
  accessTokenTtl: z.number().int(),
  createdAt: z.number().int(),
});
export type Resource = z.infer<typeof resourceSchema>;

export const resourceWithScopesSchema = resourceSchema.extend({ scopes: z.array(scopeSchema) });
export type ResourceWithScopes = z.infer<typeof resourceWithScopesSchema>;

/** POST /resources; the default flag has its own route because it changes other resources too. */
export const resourceCreateSchema = z.strictObject({
  name: resourceNameSchema,
  indicator: resourceIndicatorSchema,
  accessTokenTtl: accessTokenTtlSchema.default(ACCESS_TOKEN_TTL_SECONDS.default),
});
export type ResourceCreate = z.infer<typeof resourceCreateSchema>;

/** PATCH /resources/{id}: the indicator is the token audience and never changes. */
export const resourcePatchSchema = z.strictObject({
  name: resourceNameSchema.optional(),
  accessTokenTtl: accessTokenTtlSchema.optional(),
});
export type ResourcePatch = z.infer<typeof resourcePatchSchema>;

/** PATCH /resources/{id}/is-default: at most one resource of a tenant is the default. */
export const resourceIsDefaultSchema = z.strictObject({ isDefault: z.boolean() });
