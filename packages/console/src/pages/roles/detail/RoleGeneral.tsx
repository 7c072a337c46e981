import { useForm } from 'react-hook-form';
import { useUpdateRole } from '../../../api/roles.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { RoleTypeTag } from '../RoleTypeTag.tsx';
import { type RoleDetailsForm, roleDetailsFormSchema, useRoleFormResolver } from '../role-form.ts';
import styles from './RoleTabs.module.css';
import { useRoleOutlet } from './role-context.ts';

/** Spec §2.2 roles/{id}/general: name and description, with the unsaved-changes guard; the type is fixed. */
export function RoleGeneral() {
  const { t } = useTranslation('roles');
  const { role } = useRoleOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateRole(role.id);
  const { control, handleSubmit, reset, setError, formState } = useForm<RoleDetailsForm>({
    resolver: useRoleFormResolver(roleDetailsFormSchema),
    mode: 'onBlur',
    defaultValues: { name: role.name, description: role.description },
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const saved = await update.mutateAsync(values);
        reset({ name: saved.name, description: saved.description });
        toast.success(t('general.saved'));
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'role.name_in_use': 'name' } })) throw error;
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
      <Card title={t('general.title')}>
        <div className={styles.general}>
          <FormTextInput name="name" control={control} label={t('fields.name')} isRequired />
          <FormTextInput name="description" control={control} label={t('fields.description')} />
          <div className={styles.readOnly}>
            <span className={styles.readOnlyLabel}>{t('fields.type')}</span>
            <span>
              <RoleTypeTag type={role.type} />
            </span>
            <span className={styles.muted}>{t('general.type_fixed')}</span>
          </div>
        </div>
      </Card>
    </DetailsForm>
  );
}
