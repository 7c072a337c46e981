import type { User } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateUser } from '../../../api/users.ts';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toUser, toUsers } from '../links.ts';
import { NewPasswordDialog } from '../password/NewPasswordDialog.tsx';
import styles from '../password/Password.module.css';
import { usePasswordModeOptions } from '../password/use-password-mode-options.ts';
import { useUserFormMessages } from '../use-user-form-messages.ts';
import { userDisplayName } from '../user-display.ts';
import { generateUserPassword, hasIdentifier } from '../user-rules.ts';
import { userServerErrors } from '../user-server-errors.ts';
import {
  type CreateUserForm,
  createUserFormSchema,
  emptyCreateUserForm,
  toCreateUserBody,
  userWording,
} from './create-user-form.ts';

/**
 * Spec §2.2 users/create, a dialog over the list: the identifiers (at least one, spec §5 formats checked before
 * submitting), the name and a password, generated (then shown once) or typed. A username, email or phone in use
 * (422) is shown on its field. Success opens the new user.
 */
export function CreateUserModal() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateUser();
  const messages = useUserFormMessages();
  const modeOptions = usePasswordModeOptions(['generate', 'custom', 'none']);
  const [created, setCreated] = useState<{ user: User; password: string }>();
  const resolver = useMemo(
    () => schemaResolver<CreateUserForm>(createUserFormSchema, userWording(messages), { raw: true }),
    [messages],
  );
  const { control, handleSubmit, formState, setError, watch } = useForm<CreateUserForm>({
    resolver,
    mode: 'onBlur',
    defaultValues: emptyCreateUserForm,
  });
  const values = watch();

  const openUser = (user: User) => navigate(resolve(toUser(user.id)), { replace: true });
  // Back to the list with its search and filters as they were.
  const close = () => navigate({ pathname: resolve(toUsers()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (form) => {
      const { body, generatedPassword } = toCreateUserBody(form, generateUserPassword);
      try {
        const user = await create.mutateAsync(body);
        toast.success(t('create.created', { name: userDisplayName(user) ?? user.id }));
        if (generatedPassword) setCreated({ user, password: generatedPassword });
        else await openUser(user);
      } catch (error) {
        if (!applyServerErrors({ setError }, error, userServerErrors(messages))) throw error;
      }
    }),
  );

  if (created) {
    return (
      <NewPasswordDialog
        title={t('create.password_title')}
        userName={userDisplayName(created.user) ?? created.user.id}
        password={created.password}
        onDone={() => void openUser(created.user)}
      />
    );
  }

  // Shown after a submit, until one identifier is filled in.
  const identifiersError = hasIdentifier(values) ? undefined : formState.errors.root?.identifiers?.message;
  return (
    <FormModal
      title={t('create.title')}
      description={t('create.description')}
      submitText={t('create.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      {identifiersError && (
        <p role="alert" className={styles.alert}>
          {identifiersError}
        </p>
      )}
      <FormTextInput
        name="username"
        control={control}
        label={t('fields.username')}
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
        data-autofocus
      />
      <FormTextInput
        name="primaryEmail"
        control={control}
        label={t('fields.primaryEmail')}
        type="email"
        autoComplete="off"
        dir="ltr"
      />
      <FormTextInput
        name="primaryPhone"
        control={control}
        label={t('fields.primaryPhone')}
        type="tel"
        autoComplete="off"
        dir="ltr"
        description={t('create.phone_description')}
      />
      <FormTextInput name="name" control={control} label={t('fields.name')} autoComplete="off" />
      <FormCardRadio name="passwordMode" control={control} label={t('fields.password')} options={modeOptions} />
      {values.passwordMode === 'custom' && (
        <FormTextInput
          name="password"
          control={control}
          label={t('fields.new_password')}
          isConfidential
          isRequired
          autoComplete="new-password"
        />
      )}
    </FormModal>
  );
}
