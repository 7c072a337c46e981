import type { Me } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { fieldProblem, usernameFormSchema } from './field-rules.ts';
import { useSaveProfile } from './use-save-profile.ts';

/** OSS only (spec §6). Spec §5: required once edited, a letter or underscore first. */
export function UsernameModal({ me, onClose }: { me: Me; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const save = useSaveProfile();
  const label = t('username.label');
  const resolver = useMemo(
    () =>
      schemaResolver(usernameFormSchema, (issue) => {
        const problem = fieldProblem(issue);
        if (problem.key === 'required') return t('required_field_missing', { field: label });
        if (problem.key === 'too_long') return t('too_long', { field: label, max: problem.max });
        return t('username.invalid');
      }),
    [t, label],
  );
  const { control, handleSubmit, formState } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { username: me.username ?? '' },
  });
  const onSubmit = handleSubmit(async ({ username }) => {
    if (username === me.username) return onClose();
    if (await save({ username })) onClose();
  });
  return (
    <FormModal
      size="small"
      title={t('username.title')}
      submitText={t('save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="username"
        control={control}
        label={label}
        description={t('username.description')}
        isRequired
        autoComplete="username"
        spellCheck={false}
        data-autofocus
      />
    </FormModal>
  );
}
