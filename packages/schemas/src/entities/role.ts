import { z } from 'zod';
import { idSchema, userIdSchema } from '../ids.ts';
import { resourceSchema } from './resource.ts';
import { scopeSchema } from './scope.ts';

/** A list of 1 to `max` distinct ids, as assignment bodies carry them. */
export const idListSchema = <T extends z.ZodString>(item: T, max = 100) =>
  z
    .array(item)
    .min(1)
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id');

export const roleTypes = ['User', 'MachineToMachine'] as const;
export type RoleType = (typeof roleTypes)[number];

/** Spec §5: role name and description up to 128 characters. */
export const roleNameSchema = z.string().trim().min(1).max(128);
export const roleDescriptionSchema = z.string().max(128);

export const roleSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  description: z.string(),
  type: z.enum(roleTypes),
  isDefault: z.boolean(),
  createdAt: z.number().int(),
});
export type Role = z.infer<typeof roleSchema>;

/** A role as GET /roles lists it: with what an admin decides from (who holds it, what it grants). */
export const roleListItemSchema = roleSchema.extend({
  usersCount: z.number().int().meta({ description: 'Users holding the role.' }),
  featuredUsers: z
    .array(z.object({ id: z.string(), name: z.string().nullable(), avatar: z.string().nullable() }))
    .meta({ description: 'Up to three users holding the role.' }),
  applicationsCount: z.number().int().meta({ description: 'Machine-to-machine applications holding the role.' }),
  featuredApplications: z
    .array(z.object({ id: z.string(), name: z.string(), type: z.string() }))
    .meta({ description: 'Up to three machine-to-machine applications holding the role.' }),
  scopesCount: z.number().int().meta({ description: 'Permissions (API resource scopes) the role grants.' }),
});
export type RoleListItem = z.infer<typeof roleListItemSchema>;

export const roleCreateSchema = z.strictObject({
  name: roleNameSchema,
  description: roleDescriptionSchema.default(''),
  type: z.enum(roleTypes).default('User'),
  isDefault: z.boolean().default(false),
  /** Permissions the role starts with. */
  scopeIds: idListSchema(idSchema).optional(),
});
export type RoleCreate = z.infer<typeof roleCreateSchema>;

export const rolePatchSchema = z.strictObject({
  name: roleNameSchema.optional(),
  description: roleDescriptionSchema.optional(),
  isDefault: z.boolean().optional(),
});
export type RolePatch = z.infer<typeof rolePatchSchema>;

/** A role's permission, with the API resource it belongs to (GET /roles/{id}/scopes). */
export const roleScopeSchema = scopeSchema.extend({ resource: resourceSchema });
export type RoleScope = z.infer<typeof roleScopeSchema>;

/** A user holding a role, as role lists show them (no credentials, no identities). */
export const roleUserSchema = z.object({
  id: userIdSchema,
  username: z.string().nullable(),
  primaryEmail: z.string().nullable(),
  primaryPhone: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  isSuspended: z.boolean(),
  lastSignInAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type RoleUser = z.infer<typeof roleUserSchema>;

export const roleScopesAssignSchema = z.strictObject({ scopeIds: idListSchema(idSchema) });
export const roleUsersAssignSchema = z.strictObject({ userIds: idListSchema(userIdSchema) });
export const roleApplicationsAssignSchema = z.strictObject({ applicationIds: idListSchema(idSchema) });
