import {
  ACCESS_TOKEN_TTL_SECONDS,
  accessTokenTtlSchema,
  resourceIndicatorSchema,
  resourceNameSchema,
  scopeDescriptionSchema,
  scopeNameSchema,
} from '@gatehouse/schemas';
import type { FieldValues } from 'react-hook-form';
import { z } from 'zod';
import { schemaResolver } from '../../components/form/schema-resolver.ts';

/** The forms hold the shared rules of the API (one rule, one place); only the messages are the console's. */
export const createResourceFormSchema = z.object({ name: resourceNameSchema, indicator: resourceIndicatorSchema });
export const generalFormSchema = z.object({
  name: resourceNameSchema,
  accessTokenTtl: accessTokenTtlSchema,
  isDefault: z.boolean(),
});
export const createPermissionFormSchema = z.object({ name: scopeNameSchema, description: scopeDescriptionSchema });
export const editPermissionFormSchema = z.object({ description: scopeDescriptionSchema });

/** The fields of these forms; each has its own way of explaining a refused value. */
export type RuleField = 'name' | 'indicator' | 'accessTokenTtl' | 'permissionName' | 'description';

export type FieldProblem =
  | { key: 'required' }
  | { key: 'too_long'; max: number }
  | { key: 'indicator_invalid' }
  | { key: 'permission_name_invalid' }
  | { key: 'ttl_range'; min: number; max: number };

const maxLengths: Record<Exclude<RuleField, 'accessTokenTtl'>, number | null> = {
  name: resourceNameSchema.maxLength,
  indicator: resourceIndicatorSchema.maxLength,
  permissionName: scopeNameSchema.maxLength,
  description: scopeDescriptionSchema.maxLength,
};

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * What a refused value means to the user. The shared schemas carry English messages for API callers, and zod lets a
 * check's own message win over any error map, so the console decides from the field, the issue code and the value.
 */
export function fieldProblem(field: RuleField, code: string | undefined, value: unknown): FieldProblem {
  if (field === 'accessTokenTtl') {
    if (isBlank(value)) return { key: 'required' };
    return { key: 'ttl_range', min: ACCESS_TOKEN_TTL_SECONDS.min, max: ACCESS_TOKEN_TTL_SECONDS.max };
  }
  // A description may be empty; the others are required (a name of spaces trims to empty).
  if (field !== 'description' && isBlank(value)) return { key: 'required' };
  const max = maxLengths[field];
  if (code === 'too_big' && max !== null) return { key: 'too_long', max };
  if (field === 'indicator') return { key: 'indicator_invalid' };
  if (field === 'permissionName') return { key: 'permission_name_invalid' };
  return { key: 'required' };
}

/**
 * The form resolver (`schemaResolver`) with the console's messages: `message(problem, field)` words each failing field
 * of a flat form. `fields` maps the form's field names to rule fields.
 */
export function resolverWithMessages<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  fields: Partial<Record<keyof z.input<Schema> & string, RuleField>>,
  message: (problem: FieldProblem, field: RuleField) => string,
) {
  return schemaResolver(schema, (issue) => {
    const [name] = issue.path;
    const field = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
    return field ? message(fieldProblem(field, issue.code, issue.input), field) : undefined;
  });
}
