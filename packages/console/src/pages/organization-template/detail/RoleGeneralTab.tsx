import { useForm } from 'react-hook-form';
import { useUpdateOrganizationRole } from '../../../api/organization-template.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { OrganizationRoleTypeTag } from '../OrganizationRoleTypeTag.tsx';
import styles from '../OrganizationTemplate.module.css';
import { type RoleDetailsForm, roleDetailsFormSchema, useTemplateFormResolver } from '../template-form.ts';
import { useOrganizationRoleOutlet } from './role-context.ts';

/** organization-template/organization-roles/{id}/general: name and description; the type is fixed at creation. */
export function RoleGeneralTab() {
  const { t } = useTranslation('organization_template');
  const { role } = useOrganizationRoleOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateOrganizationRole(role.id);
  const { control, handleSubmit, reset, setError, formState } = useForm<RoleDetailsForm>({
    resolver: useTemplateFormResolver(roleDetailsFormSchema, 'name'),
    mode: 'onBlur',
    defaultValues: { name: role.name, description: role.description ?? '' },
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const saved = await update.mutateAsync({ name: values.name, description: values.description || null });
        reset({ name: saved.name, description: saved.description ?? '' });
        toast.success(t('detail.saved'));
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'entity.unique_integrity_violation': 'name' } }))
          throw error;
      }
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('detail.general_title')}>
        <div className={styles.general}>
          <FormTextInput name="name" control={control} label={t('fields.name')} isRequired />
          <FormTextInput name="description" control={control} label={t('fields.description')} />
          <div className={styles.readOnly}>
            <span className={styles.readOnlyLabel}>{t('fields.type')}</span>
            <span>
              <OrganizationRoleTypeTag type={role.type} />
            </span>
            <span className={styles.muted}>{t('detail.type_fixed')}</span>
          </div>
        </div>
      </Card>
    </DetailsForm>
  );
}
