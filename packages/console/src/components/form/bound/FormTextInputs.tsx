import type { ComponentProps } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FormField } from '../FormField.tsx';
import { NumberInput, type NumberInputProps } from '../NumberInput.tsx';
import { TextArea } from '../TextArea.tsx';
import { TextInput, type TextInputProps } from '../TextInput.tsx';
import { type BoundFieldProps, fieldProps, useBoundField } from './use-bound-field.ts';

type Unbound<P> = Omit<P, 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'ref' | 'className'>;

export function FormTextInput<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, string | null | undefined> & Unbound<TextInputProps>,
) {
  const { name, control, label, isRequired, description, note, className, ...inputProps } = props;
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <TextInput
        {...inputProps}
        ref={field.ref}
        name={field.name}
        value={field.value ?? ''}
        disabled={field.disabled || inputProps.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

/** Empty input is null, not NaN or 0, so the schema decides whether a number is required. */
export function FormNumberInput<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, number | null | undefined> & Unbound<NumberInputProps>,
) {
  const { name, control, label, isRequired, description, note, className, ...inputProps } = props;
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <NumberInput
        {...inputProps}
        ref={field.ref}
        name={field.name}
        value={field.value ?? ''}
        disabled={field.disabled || inputProps.disabled}
        onChange={(event) => field.onChange(event.target.value === '' ? null : event.target.valueAsNumber)}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

/** Multi-line text (XML metadata, a list one entry per line); empty is `''`. */
export function FormTextArea<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, string | null | undefined> & Unbound<ComponentProps<'textarea'>>,
) {
  const { name, control, label, isRequired, description, note, className, ...areaProps } = props;
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <TextArea
        {...areaProps}
        ref={field.ref}
        name={field.name}
        value={field.value ?? ''}
        disabled={field.disabled || areaProps.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}
