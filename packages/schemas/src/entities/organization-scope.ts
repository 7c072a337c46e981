import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { idSchema } from '../ids.ts';
import { scopeNameRegex } from './scope.ts';

/**
 * An organization permission (organization scope) of the organization template. Its name goes
 * into organization tokens' `scope`, so it is an RFC 6749 scope-token like an API permission.
 */
export const organizationScopeNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(scopeNameRegex, 'must be one word of printable characters, without spaces, quotes or backslashes');
export const organizationScopeDescriptionSchema = z.string().max(256);

export const organizationScopeSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.number().int(),
});
export type OrganizationScope = z.infer<typeof organizationScopeSchema>;

export const organizationScopeCreateSchema = z.strictObject({
  name: organizationScopeNameSchema,
  description: organizationScopeDescriptionSchema.nullable().optional(),
});
export type OrganizationScopeCreate = z.infer<typeof organizationScopeCreateSchema>;

export const organizationScopePatchSchema = z.strictObject({
  name: organizationScopeNameSchema.optional(),
  description: organizationScopeDescriptionSchema.nullable().optional(),
});
export type OrganizationScopePatch = z.infer<typeof organizationScopePatchSchema>;

/** `q` (reference) or `search`: a substring of the name, any case; `%` in it is a wildcard. */
export const keywordQuerySchema = paginationQuerySchema.extend({
  q: z.string().max(256).optional().meta({ description: 'Keyword (substring, any case).' }),
  search: z.string().max(256).optional().meta({ description: 'Alias of q.' }),
});
