import { z } from 'zod';
import { idSchema } from '../ids.ts';

/** RFC 6749 §3.3 scope-token: printable ASCII without space, double quote or backslash. */
export const scopeNameRegex = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
export const scopeNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(scopeNameRegex, 'must be one word of printable characters, without spaces, quotes or backslashes');
export const scopeDescriptionSchema = z.string().max(1024);

/** A permission of an API resource (spec §3 scope). */
export const scopeSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  resourceId: idSchema,
  name: z.string(),
  description: z.string(),
  createdAt: z.number().int(),
});
export type Scope = z.infer<typeof scopeSchema>;

export const scopeCreateSchema = z.strictObject({
  name: scopeNameSchema,
  description: scopeDescriptionSchema.default(''),
});
export type ScopeCreate = z.infer<typeof scopeCreateSchema>;

export const scopePatchSchema = z.strictObject({
  name: scopeNameSchema.optional(),
  description: scopeDescriptionSchema.optional(),
});
export type ScopePatch = z.infer<typeof scopePatchSchema>;
