import { hexColorRegex } from '@gatehouse/schemas';
import { type Control, useController } from 'react-hook-form';
import { FormField } from '../../../components/form/FormField.tsx';
import { TextInput } from '../../../components/form/TextInput.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import type { SieForm } from '../sie-form.ts';

/** The colour picker takes #rrggbb only: #rgb is widened, and anything not yet a colour shows the last good one. */
export function pickerValue(text: string, fallback: string): string {
  const value = text.trim();
  if (!hexColorRegex.test(value)) return fallback;
  if (value.length === 4) return `#${[...value.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
  return value.toLowerCase();
}

/** A hex colour (spec §5: #rgb or #rrggbb) typed as text, with a swatch that opens the browser's colour picker. */
export function ColorField({
  name,
  control,
  label,
  fallback,
}: {
  name: 'color.primaryColor' | 'color.darkPrimaryColor';
  control: Control<SieForm>;
  label: string;
  fallback: string;
}) {
  const { t } = useTranslation('sign_in_experience');
  const { field, fieldState } = useController({ name, control });
  return (
    <FormField name={name} label={label} error={fieldState.error?.message} isRequired>
      <div className={styles.colorRow}>
        <TextInput
          ref={field.ref}
          name={field.name}
          value={field.value}
          spellCheck={false}
          autoComplete="off"
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
        <input
          type="color"
          className={styles.swatch}
          aria-label={t('branding.pick_color', { name: label })}
          value={pickerValue(field.value, fallback)}
          onChange={(event) => field.onChange(event.target.value.toUpperCase())}
          onBlur={field.onBlur}
        />
      </div>
    </FormField>
  );
}
