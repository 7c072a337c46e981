import { Card } from '../../../components/Card/Card.tsx';
import { FormCheckbox, FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormMultiTextInput } from '../../../components/form/bound/FormListInputs.tsx';
import { FormNumberInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import { useSieOutlet } from '../sie-context.ts';
import { characterTypeCounts, MAX_PASSWORD_LENGTH } from '../sie-form.ts';

/** Spec §5 password policy: length 1–256, character types 1–4, and what a password may not be. */
export function PasswordPolicyTab() {
  const { t } = useTranslation('sign_in_experience');
  const { form } = useSieOutlet();
  const { control } = form;
  return (
    <div className={styles.cards}>
      <Card title={t('password.length')} description={t('password.length_description', { max: MAX_PASSWORD_LENGTH })}>
        <div className={styles.pair}>
          <FormNumberInput
            name="passwordPolicy.length.min"
            control={control}
            label={t('password.min_length')}
            min={1}
            max={MAX_PASSWORD_LENGTH}
            isRequired
          />
          <FormNumberInput
            name="passwordPolicy.length.max"
            control={control}
            label={t('password.max_length')}
            min={1}
            max={MAX_PASSWORD_LENGTH}
            isRequired
          />
        </div>
      </Card>
      <Card title={t('password.character_types')} description={t('password.character_types_description')}>
        <div className={styles.fields}>
          <FormSelect
            name="passwordPolicy.characterTypes.min"
            control={control}
            label={t('password.min_character_types')}
            options={characterTypeCounts.map((count) => ({
              value: count,
              label: t(`password.character_types_options.${count}`),
            }))}
          />
        </div>
      </Card>
      <Card title={t('password.rejects')}>
        <div className={styles.fields}>
          <FormCheckbox
            name="passwordPolicy.rejects.pwned"
            control={control}
            label={t('password.reject_pwned')}
            inlineLabel={t('password.reject_pwned_inline')}
          />
          <FormCheckbox
            name="passwordPolicy.rejects.repetitionAndSequence"
            control={control}
            label={t('password.reject_repetition')}
            inlineLabel={t('password.reject_repetition_inline')}
          />
          <FormCheckbox
            name="passwordPolicy.rejects.userInfo"
            control={control}
            label={t('password.reject_user_info')}
            inlineLabel={t('password.reject_user_info_inline')}
          />
          <FormMultiTextInput
            name="passwordPolicy.rejects.words"
            control={control}
            label={t('password.custom_words')}
            description={t('password.custom_words_description')}
            itemLabel={t('password.custom_word')}
          />
        </div>
      </Card>
    </div>
  );
}
