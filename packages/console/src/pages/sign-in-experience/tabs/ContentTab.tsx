import { agreeToTermsPolicies, languages } from '@gatehouse/schemas';
import { Card } from '../../../components/Card/Card.tsx';
import { FormCardRadio, FormSelect, FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { languageName } from '../../../i18n/language-name.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import { useSieOutlet } from '../sie-context.ts';

const urlPlaceholder = 'https://';

/** Spec §2.2 sign-in-experience/content: terms and privacy links, agreeing to them, languages, support contacts. */
export function ContentTab() {
  const { t } = useTranslation('sign_in_experience');
  const { form } = useSieOutlet();
  const { control } = form;
  return (
    <div className={styles.cards}>
      <Card title={t('content.terms')} description={t('content.terms_description')}>
        <div className={styles.fields}>
          <FormTextInput
            name="termsOfUseUrl"
            control={control}
            type="url"
            label={t('content.terms_of_use_url')}
            placeholder={urlPlaceholder}
          />
          <FormTextInput
            name="privacyPolicyUrl"
            control={control}
            type="url"
            label={t('content.privacy_policy_url')}
            placeholder={urlPlaceholder}
          />
          <FormCardRadio
            name="agreeToTermsPolicy"
            control={control}
            label={t('content.agree_policy')}
            options={agreeToTermsPolicies.map((policy) => ({
              value: policy,
              title: t(`content.agree.${policy}`),
              description: t(`content.agree.${policy}_description`),
            }))}
          />
        </div>
      </Card>
      <Card title={t('content.languages')}>
        <div className={styles.fields}>
          <FormSwitch
            name="languageInfo.autoDetect"
            control={control}
            label={t('content.auto_detect')}
            inlineLabel={t('content.auto_detect_inline')}
          />
          <FormSelect
            name="languageInfo.fallbackLanguage"
            control={control}
            label={t('content.fallback_language')}
            description={t('content.fallback_language_description')}
            options={languages.map((language) => ({ value: language, label: languageName(language) }))}
          />
        </div>
      </Card>
      <Card title={t('content.support')} description={t('content.support_description')}>
        <div className={styles.fields}>
          <FormTextInput name="supportEmail" control={control} type="email" label={t('content.support_email')} />
          <FormTextInput
            name="supportWebsiteUrl"
            control={control}
            type="url"
            label={t('content.support_website_url')}
            placeholder={urlPlaceholder}
          />
        </div>
      </Card>
    </div>
  );
}
