import { type InputHTMLAttributes, type Ref, useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { EyeIcon, EyeOffIcon } from '../icons.tsx';
import { useFieldControlProps } from './field-context.ts';
import inputStyles from './input.module.css';
import styles from './TextInput.module.css';

export type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  type?: 'text' | 'email' | 'url' | 'tel' | 'search' | 'password';
  /** Secrets (client secrets, keys): masked until the user asks to see them (spec §5). */
  isConfidential?: boolean;
  ref?: Ref<HTMLInputElement>;
};

export function TextInput({ type = 'text', isConfidential = false, className, ref, dir, ...rest }: TextInputProps) {
  const { t } = useTranslation('components');
  const [isRevealed, setRevealed] = useState(false);
  const field = useFieldControlProps(rest);
  const input = (
    <input
      ref={ref}
      className={classNames(inputStyles.input, !isConfidential && className)}
      type={isConfidential ? (isRevealed ? 'text' : 'password') : type}
      // What users type takes its own direction (Latin names in an Arabic console); a caller may still fix it. An
      // undefined `dir` (a caller that fixes it only for some fields) keeps `auto` (issue 40, item 15).
      dir={dir ?? 'auto'}
      {...(isConfidential && { autoComplete: 'off', spellCheck: false })}
      {...rest}
      {...field}
    />
  );
  if (!isConfidential) return input;
  return (
    <div className={classNames(styles.confidential, className)}>
      {input}
      <button
        type="button"
        className={styles.toggle}
        aria-label={isRevealed ? t('text_input.hide') : t('text_input.show')}
        aria-controls={field.id}
        onClick={() => setRevealed((revealed) => !revealed)}
        disabled={rest.disabled}
      >
        {isRevealed ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
