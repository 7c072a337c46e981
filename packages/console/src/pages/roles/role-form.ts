import { roleDescriptionSchema, roleNameSchema, roleTypes } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { useTranslation } from '../../i18n/react.tsx';

/** The forms hold the shared rules of POST/PATCH /roles (spec §5: name and description up to 128). */
export const roleDetailsFormSchema = z.object({ name: roleNameSchema, description: roleDescriptionSchema });
export const createRoleFormSchema = roleDetailsFormSchema.extend({ type: z.enum(roleTypes) });

export type RoleDetailsForm = z.input<typeof roleDetailsFormSchema>;
export type CreateRoleForm = z.input<typeof createRoleFormSchema>;

type Issue = { code?: string | undefined; path?: readonly PropertyKey[] | undefined; maximum?: unknown };

/** A resolver whose messages name the field and the rule it broke, in the interface language. */
export function useRoleFormResolver<S extends typeof roleDetailsFormSchema | typeof createRoleFormSchema>(schema: S) {
  const { t } = useTranslation('roles');
  return useMemo(
    () =>
      schemaResolver(schema, (issue: Issue) => {
        const field = issue.path?.[0] === 'description' ? t('fields.description') : t('fields.name');
        if (issue.code === 'too_small') return t('errors.required', { field });
        if (issue.code === 'too_big') return t('errors.too_long', { field, max: Number(issue.maximum) });
        return undefined;
      }),
    [schema, t],
  );
}
