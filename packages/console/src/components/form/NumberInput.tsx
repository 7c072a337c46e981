import type { InputHTMLAttributes, Ref, WheelEvent } from 'react';
import { classNames } from '../class-names.ts';
import { useFieldControlProps } from './field-context.ts';
import inputStyles from './input.module.css';

export type NumberInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { ref?: Ref<HTMLInputElement> };

/**
 * Spec §5: the mouse wheel must not change the number. Browsers only step a focused number input on wheel, so the
 * input lets go of focus and the page scrolls as the user meant. (React's wheel listener is passive, so
 * preventDefault would not work here.)
 */
function releaseFocusOnWheel(event: WheelEvent<HTMLInputElement>) {
  event.currentTarget.blur();
}

export function NumberInput({ className, ref, onWheel, ...rest }: NumberInputProps) {
  const field = useFieldControlProps(rest);
  return (
    <input
      ref={ref}
      type="number"
      inputMode="decimal"
      className={classNames(inputStyles.input, className)}
      onWheel={(event) => {
        releaseFocusOnWheel(event);
        onWheel?.(event);
      }}
      {...rest}
      {...field}
    />
  );
}
