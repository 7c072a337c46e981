import { signInModes, signUpIdentifierKinds } from '@gatehouse/schemas';
import { useWatch } from 'react-hook-form';
import { Card } from '../../../components/Card/Card.tsx';
import {
  FormCardRadio,
  FormCheckbox,
  FormSelect,
  FormSwitch,
} from '../../../components/form/bound/FormChoiceInputs.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import { useSieOutlet } from '../sie-context.ts';
import { SignInMethodsField } from './SignInMethodsField.tsx';
import { SocialSignInField } from './SocialSignInField.tsx';

/**
 * Spec §2.2 sign-in-experience/sign-up-and-sign-in: who may use the page (sign-in mode), the sign-up identifier with
 * its password and verification, the sign-in methods, passkey sign-in, the social sign-in buttons and enterprise SSO.
 * The rules across them are the server's; its refusal is shown at the field it concerns.
 */
export function SignUpAndSignInTab() {
  const { t } = useTranslation('sign_in_experience');
  const { form } = useSieOutlet();
  const { control } = form;
  const kind = useWatch({ control, name: 'signUp.kind' });
  const passkeySignIn = useWatch({ control, name: 'passkeySignIn.enabled' });
  return (
    <div className={styles.cards}>
      <Card title={t('sign_in_mode.title')}>
        <FormCardRadio
          name="signInMode"
          control={control}
          label={t('sign_in_mode.label')}
          options={[...signInModes].reverse().map((mode) => ({
            value: mode,
            title: t(`sign_in_mode.${mode}`),
            description: t(`sign_in_mode.${mode}_description`),
          }))}
        />
      </Card>
      <Card title={t('sign_up.title')} description={t('sign_up.description')}>
        <div className={styles.fields}>
          <FormSelect
            name="signUp.kind"
            control={control}
            label={t('sign_up.identifier')}
            options={signUpIdentifierKinds.map((value) => ({ value, label: t(`sign_up.kinds.${value}`) }))}
          />
          <FormSwitch
            name="signUp.password"
            control={control}
            label={t('sign_up.password')}
            inlineLabel={t('sign_up.password_inline')}
            disabled={kind === 'none'}
          />
          <FormSwitch
            name="signUp.verify"
            control={control}
            label={t('sign_up.verify')}
            inlineLabel={t('sign_up.verify_inline')}
            disabled={kind === 'none' || kind === 'username'}
          />
        </div>
      </Card>
      <Card title={t('sign_in.title')}>
        <SignInMethodsField form={form} />
      </Card>
      <Card title={t('passkey.title')} description={t('passkey.description')}>
        <div className={styles.fields}>
          <FormSwitch
            name="passkeySignIn.enabled"
            control={control}
            label={t('passkey.label')}
            inlineLabel={t('passkey.inline')}
            description={t('passkey.note')}
          />
          {/* How users start it, only while it is on; the choices are kept (and saved) while it is off. */}
          {passkeySignIn && (
            <>
              <FormCheckbox
                name="passkeySignIn.showPasskeyButton"
                control={control}
                label={t('passkey.button')}
                inlineLabel={t('passkey.button_inline')}
              />
              <FormCheckbox
                name="passkeySignIn.allowAutofill"
                control={control}
                label={t('passkey.autofill')}
                inlineLabel={t('passkey.autofill_inline')}
              />
            </>
          )}
        </div>
      </Card>
      <Card title={t('social.title')}>
        <SocialSignInField form={form} />
      </Card>
      <Card title={t('sso.title')} description={t('sso.description')}>
        <FormSwitch name="singleSignOnEnabled" control={control} label={t('sso.label')} inlineLabel={t('sso.inline')} />
      </Card>
    </div>
  );
}
