import type { ComponentProps } from 'react';
import { classNames } from '../class-names.ts';
import { useFieldControlProps } from './field-context.ts';
import inputStyles from './input.module.css';
import styles from './TextArea.module.css';

/**
 * A multi-line text field with the kit's field wiring (label, description and error from its FormField). For machine
 * text (XML metadata, lists of domains): left to right in every language, monospace, no spell check.
 */
export function TextArea({ className, ...props }: ComponentProps<'textarea'>) {
  const wiring = useFieldControlProps(props);
  return (
    <textarea
      dir="ltr"
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      className={classNames(inputStyles.input, styles.textarea, className)}
      {...props}
      {...wiring}
    />
  );
}
