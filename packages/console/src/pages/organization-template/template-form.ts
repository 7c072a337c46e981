import {
  organizationRoleDescriptionSchema,
  organizationRoleNameSchema,
  organizationRoleTypes,
  organizationScopeDescriptionSchema,
  scopeNameRegex,
} from '@gatehouse/schemas';
import { useMemo } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { useTranslation } from '../../i18n/react.tsx';

/**
 * The forms hold the shared rules of the organization role and permission APIs (spec §5, docs/areas/organizations.md).
 */
export const roleDetailsFormSchema = z.object({
  name: organizationRoleNameSchema,
  description: organizationRoleDescriptionSchema,
});
export const createRoleFormSchema = roleDetailsFormSchema.extend({ type: z.enum(organizationRoleTypes) });
/** organizationScopeNameSchema's rules without its English message, so the resolver words the regex failure. */
const permissionNameSchema = z.string().min(1).max(128).regex(scopeNameRegex);
export const createPermissionFormSchema = z.object({
  name: permissionNameSchema,
  description: organizationScopeDescriptionSchema,
});
export const editPermissionFormSchema = z.object({ description: organizationScopeDescriptionSchema });

export type RoleDetailsForm = z.input<typeof roleDetailsFormSchema>;
export type CreateRoleForm = z.input<typeof createRoleFormSchema>;
export type CreatePermissionForm = z.input<typeof createPermissionFormSchema>;
export type EditPermissionForm = z.input<typeof editPermissionFormSchema>;

type Issue = { code?: string | undefined; path?: readonly PropertyKey[] | undefined; maximum?: unknown };

/** A resolver whose messages name the field and the rule it broke, in the interface language. */
export function useTemplateFormResolver<S extends z.ZodObject>(schema: S, nameLabel: 'name' | 'permission_name') {
  const { t } = useTranslation('organization_template');
  return useMemo(
    () =>
      schemaResolver(schema, (issue: Issue) => {
        const field = issue.path?.[0] === 'description' ? t('fields.description') : t(`fields.${nameLabel}`);
        if (issue.code === 'too_small') return t('errors.required', { field });
        if (issue.code === 'too_big') return t('errors.too_long', { field, max: Number(issue.maximum) });
        if (issue.code === 'invalid_format') return t('errors.invalid_permission_name');
        return undefined;
      }),
    [schema, t, nameLabel],
  );
}
