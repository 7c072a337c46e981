import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUpdateUser } from '../../../../api/users.ts';
import { Card } from '../../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../../components/DetailsForm/DetailsForm.tsx';
import { FormCodeEditor } from '../../../../components/form/bound/FormCodeEditor.tsx';
import { FormTextInput } from '../../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { applyServerErrors } from '../../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import passwordStyles from '../../password/Password.module.css';
import { hasIdentifier } from '../../user-rules.ts';
import { userServerErrors } from '../../user-server-errors.ts';
import { useUserOutlet } from '../user-context.ts';
import { AuthorizedAppsCard } from './AuthorizedAppsCard.tsx';
import { IdentitiesCard } from './IdentitiesCard.tsx';
import { MfaFactorsCard } from './MfaFactorsCard.tsx';
import styles from './Settings.module.css';
import { SignInFactsCard } from './SignInFactsCard.tsx';
import {
  addressFields,
  profileTextFields,
  settingsFormSchema,
  settingsWording,
  toSettingsForm,
  toSettingsPatch,
  type UserSettingsForm,
} from './settings-form.ts';
import { useSettingsFormMessages } from './use-settings-form-messages.ts';

/** Claims whose values are web addresses get a URL keyboard. */
const urlClaims = new Set(['profile', 'website']);
/** Claims written in Latin script whatever the language (addresses, dates, zone and locale codes): not mirrored. */
const ltrClaims = new Set(['profile', 'website', 'birthdate', 'zoneinfo', 'locale']);

/**
 * Spec §2.2 users/{id}/settings: identifiers, name, avatar URL, profile claims and custom data (JSON, 'invalid JSON
 * format' before anything is sent), with the unsaved-changes guard; then read-only sign-in facts, identities, MFA factors
 * and the third-party applications the user authorized.
 */
export function UserSettings() {
  const { t } = useTranslation('users');
  const { user } = useUserOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateUser(user.id);
  const messages = useSettingsFormMessages();
  const resolver = useMemo(
    () => schemaResolver<UserSettingsForm>(settingsFormSchema, settingsWording(messages), { raw: true }),
    [messages],
  );
  const { control, handleSubmit, reset, setError, formState, watch } = useForm<UserSettingsForm>({
    resolver,
    mode: 'onBlur',
    defaultValues: toSettingsForm(user),
  });
  const identifiers = watch(['username', 'primaryEmail', 'primaryPhone']);
  const identifiersError = hasIdentifier({
    username: identifiers[0],
    primaryEmail: identifiers[1],
    primaryPhone: identifiers[2],
  })
    ? undefined
    : formState.errors.root?.identifiers?.message;

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const patch = toSettingsPatch(values, user);
      if (Object.keys(patch).length === 0) {
        reset(values);
        return;
      }
      try {
        const saved = await update.mutateAsync(patch);
        reset(toSettingsForm(saved));
        toast.success(t('settings.saved'));
      } catch (error) {
        if (!applyServerErrors({ setError }, error, userServerErrors(messages))) throw error;
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
      <Card title={t('settings.identifiers')} description={t('settings.identifiers_description')}>
        {identifiersError && (
          <p role="alert" className={passwordStyles.alert}>
            {identifiersError}
          </p>
        )}
        <div className={styles.grid}>
          <FormTextInput name="username" control={control} label={t('fields.username')} spellCheck={false} dir="ltr" />
          <FormTextInput
            name="primaryEmail"
            control={control}
            label={t('fields.primaryEmail')}
            type="email"
            dir="ltr"
          />
          <FormTextInput
            name="primaryPhone"
            control={control}
            label={t('fields.primaryPhone')}
            type="tel"
            dir="ltr"
            description={t('create.phone_description')}
          />
        </div>
      </Card>
      <Card title={t('settings.profile')} description={t('settings.profile_description')}>
        <div className={styles.grid}>
          <FormTextInput name="name" control={control} label={t('fields.name')} />
          <FormTextInput
            name="avatar"
            control={control}
            label={t('fields.avatar')}
            type="url"
            dir="ltr"
            placeholder={t('settings.avatar_placeholder')}
          />
          {profileTextFields.map((field) => (
            <FormTextInput
              key={field}
              name={`profile.${field}`}
              control={control}
              label={t(`profile_fields.${field}`)}
              type={urlClaims.has(field) ? 'url' : 'text'}
              dir={ltrClaims.has(field) ? 'ltr' : undefined}
              placeholder={t(`profile_placeholders.${field}`)}
            />
          ))}
        </div>
      </Card>
      <Card title={t('settings.address')}>
        <div className={styles.grid}>
          {addressFields.map((field) => (
            <FormTextInput
              key={field}
              name={`profile.address.${field}`}
              control={control}
              label={t(`address_fields.${field}`)}
            />
          ))}
        </div>
      </Card>
      <Card title={t('fields.customData')} description={t('settings.custom_data_description')}>
        <FormCodeEditor
          name="customData"
          control={control}
          label={t('settings.custom_data_label')}
          language="json"
          minLines={8}
        />
      </Card>
      <SignInFactsCard user={user} />
      <IdentitiesCard user={user} />
      <MfaFactorsCard user={user} />
      <AuthorizedAppsCard user={user} />
    </DetailsForm>
  );
}
