import type { Me } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { fieldProblem, nameFormSchema, namePatch } from './field-rules.ts';
import { useSaveProfile } from './use-save-profile.ts';

export function NameModal({ me, onClose }: { me: Me; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const save = useSaveProfile();
  const label = t('name.label');
  const resolver = useMemo(
    () =>
      // The name has no rule but its length (spec §5).
      schemaResolver(nameFormSchema, (issue) => {
        const problem = fieldProblem(issue);
        return problem.key === 'too_long' ? t('too_long', { field: label, max: problem.max }) : undefined;
      }),
    [t, label],
  );
  const { control, handleSubmit, formState } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { name: me.name ?? '' },
  });
  const onSubmit = handleSubmit(async ({ name }) => {
    if (await save(namePatch(name))) onClose();
  });
  return (
    <FormModal
      size="small"
      title={me.name ? t('name.title') : t('name.set_title')}
      submitText={t('save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput name="name" control={control} label={label} autoComplete="name" data-autofocus />
    </FormModal>
  );
}
