import { organizationDescriptionSchema, organizationNameSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { z } from 'zod';
import { parseCustomData } from '../../components/form/custom-data.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { useTranslation } from '../../i18n/react.tsx';

/** The create dialog holds the shared rules of POST /organizations (spec §5: name up to 128, description up to 256). */
export const createOrganizationFormSchema = z.object({
  name: organizationNameSchema,
  description: organizationDescriptionSchema,
});
export type CreateOrganizationForm = z.input<typeof createOrganizationFormSchema>;

/** The settings tab adds the MFA flag and custom data as JSON text (bad JSON never reaches the server). */
export const organizationSettingsFormSchema = createOrganizationFormSchema.extend({
  isMfaRequired: z.boolean(),
  customData: z.string().superRefine((text, context) => {
    const result = parseCustomData(text);
    if (!result.ok) context.addIssue({ code: 'custom', params: { problem: result.problem } });
  }),
});
export type OrganizationSettingsForm = z.input<typeof organizationSettingsFormSchema>;

type Issue = {
  code?: string | undefined;
  path?: readonly PropertyKey[] | undefined;
  maximum?: unknown;
  params?: Record<string, unknown> | undefined;
};

/** A resolver whose messages name the field and the rule it broke, in the interface language. */
export function useOrganizationFormResolver<
  S extends typeof createOrganizationFormSchema | typeof organizationSettingsFormSchema,
>(schema: S) {
  const { t } = useTranslation('organizations');
  return useMemo(
    () =>
      schemaResolver(schema, (issue: Issue) => {
        const key = issue.path?.[0];
        if (key === 'customData') {
          const problem = issue.params?.problem;
          if (problem === 'not_object') return t('errors.custom_data_not_object');
          if (problem === 'too_large') return t('errors.custom_data_too_large');
          return t('errors.custom_data_invalid');
        }
        const field = key === 'description' ? t('fields.description') : t('fields.name');
        if (issue.code === 'too_small') return t('errors.required', { field });
        if (issue.code === 'too_big') return t('errors.too_long', { field, max: Number(issue.maximum) });
        return undefined;
      }),
    [schema, t],
  );
}
