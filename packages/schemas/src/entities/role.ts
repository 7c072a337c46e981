import { z } from 'zod';
import { idSchema } from '../ids.ts';

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

export const roleCreateSchema = z.strictObject({
  name: roleNameSchema,
  description: roleDescriptionSchema.default(''),
  type: z.enum(roleTypes).default('User'),
  isDefault: z.boolean().default(false),
});
export type RoleCreate = z.infer<typeof roleCreateSchema>;

export const rolePatchSchema = z.strictObject({
  name: roleNameSchema.optional(),
  description: roleDescriptionSchema.optional(),
  isDefault: z.boolean().optional(),
});
export type RolePatch = z.infer<typeof rolePatchSchema>;
