import { z } from 'zod';
import { idSchema } from '../ids.ts';
import { keywordQuerySchema } from './organization-scope.ts';
import { idListSchema, roleTypes } from './role.ts';

/** Organization roles are held by members (User) or by machine-to-machine apps of an organization. */
export const organizationRoleTypes = roleTypes;
export type OrganizationRoleType = (typeof organizationRoleTypes)[number];

export const organizationRoleNameSchema = z.string().trim().min(1).max(128);
export const organizationRoleDescriptionSchema = z.string().max(256);

export const organizationRoleSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(organizationRoleTypes),
  createdAt: z.number().int(),
});
export type OrganizationRole = z.infer<typeof organizationRoleSchema>;

/** A role, scope or resource as a short reference inside another entity. */
export const namedRefSchema = z.object({ id: z.string(), name: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;

/** A role with its permissions, as the template lists it (names only: the list shows chips). */
export const organizationRoleWithScopesSchema = organizationRoleSchema.extend({
  scopes: z.array(namedRefSchema),
  resourceScopes: z.array(namedRefSchema.extend({ resource: namedRefSchema })),
});
export type OrganizationRoleWithScopes = z.infer<typeof organizationRoleWithScopesSchema>;

export const organizationRoleCreateSchema = z.strictObject({
  name: organizationRoleNameSchema,
  description: organizationRoleDescriptionSchema.nullable().optional(),
  type: z.enum(organizationRoleTypes).default('User'),
  /** Organization permissions the role starts with. */
  organizationScopeIds: idListSchema(idSchema).optional(),
  /** API resource permissions the role starts with. */
  resourceScopeIds: idListSchema(idSchema).optional(),
});
export type OrganizationRoleCreate = z.infer<typeof organizationRoleCreateSchema>;

/** The type is fixed at creation: members and applications already hold the role by its type. */
export const organizationRolePatchSchema = z.strictObject({
  name: organizationRoleNameSchema.optional(),
  description: organizationRoleDescriptionSchema.nullable().optional(),
});
export type OrganizationRolePatch = z.infer<typeof organizationRolePatchSchema>;

export const organizationRoleListQuerySchema = keywordQuerySchema.extend({
  type: z.enum(organizationRoleTypes).optional(),
});

/** A list of 0 to `max` distinct ids: PUT bodies replace a whole set, and `[]` empties it. */
export const idSetSchema = <T extends z.ZodString>(item: T, max = 100) =>
  z
    .array(item)
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id');

/** Permission ids of a relation POST (1–100) or PUT (0–100) as the reference takes them: repeats count once. */
const scopeIdList = (min: number) => z.array(z.string().min(1).max(256)).min(min).max(100);
export const organizationRoleScopesAssignSchema = z.strictObject({ organizationScopeIds: scopeIdList(1) });
export const organizationRoleScopesReplaceSchema = z.strictObject({ organizationScopeIds: scopeIdList(0) });
export const organizationRoleResourceScopesAssignSchema = z.strictObject({ scopeIds: scopeIdList(1) });
export const organizationRoleResourceScopesReplaceSchema = z.strictObject({ scopeIds: scopeIdList(0) });
