import { defaultSignInExperience } from '@gatehouse/schemas';
import { Card } from '../../../components/Card/Card.tsx';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormCodeEditor } from '../../../components/form/bound/FormCodeEditor.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import { useSieOutlet } from '../sie-context.ts';
import { ColorField } from './ColorField.tsx';

const urlPlaceholder = 'https://';

/** Spec §2.2 sign-in-experience/branding: colours, dark mode, logos, favicon, custom CSS, the "Powered by" line. */
export function BrandingTab() {
  const { t } = useTranslation('sign_in_experience');
  const { form } = useSieOutlet();
  const { control } = form;
  const defaults = defaultSignInExperience.color;
  return (
    <div className={styles.cards}>
      <Card title={t('branding.colors')} description={t('branding.colors_description')}>
        <div className={styles.fields}>
          <ColorField
            name="color.primaryColor"
            control={control}
            label={t('branding.primary_color')}
            fallback={defaults.primaryColor.toLowerCase()}
          />
          <FormSwitch
            name="color.isDarkModeEnabled"
            control={control}
            label={t('branding.dark_mode')}
            inlineLabel={t('branding.dark_mode_inline')}
          />
          <ColorField
            name="color.darkPrimaryColor"
            control={control}
            label={t('branding.dark_primary_color')}
            fallback={defaults.darkPrimaryColor.toLowerCase()}
          />
        </div>
      </Card>
      <Card title={t('branding.images')} description={t('branding.images_description')}>
        <div className={styles.fields}>
          <FormTextInput
            name="branding.logoUrl"
            control={control}
            type="url"
            label={t('branding.logo_url')}
            placeholder={urlPlaceholder}
          />
          <FormTextInput
            name="branding.darkLogoUrl"
            control={control}
            type="url"
            label={t('branding.dark_logo_url')}
            placeholder={urlPlaceholder}
          />
          <FormTextInput
            name="branding.favicon"
            control={control}
            type="url"
            label={t('branding.favicon')}
            placeholder={urlPlaceholder}
          />
        </div>
      </Card>
      <Card title={t('branding.custom_css')} description={t('branding.custom_css_description')}>
        <FormCodeEditor
          name="customCss"
          control={control}
          label={t('branding.custom_css')}
          language="plain"
          minLines={8}
        />
      </Card>
      <Card title={t('branding.footer')}>
        <FormSwitch
          name="hideLogtoBranding"
          control={control}
          label={t('branding.hide_powered_by')}
          description={t('branding.hide_powered_by_description')}
        />
      </Card>
    </div>
  );
}
