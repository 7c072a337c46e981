import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { CardRadio, type CardRadioOption } from '../CardRadio.tsx';
import { Checkbox } from '../Checkbox.tsx';
import { FormField } from '../FormField.tsx';
import { Select, type SelectOption } from '../Select.tsx';
import { Switch } from '../Switch.tsx';
import { type BoundFieldProps, fieldProps, useBoundField } from './use-bound-field.ts';

export function FormSelect<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, string | null | undefined> & {
    options: readonly SelectOption[];
    placeholder?: string;
    disabled?: boolean;
  },
) {
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <Select
        ref={field.ref}
        name={field.name}
        options={props.options}
        placeholder={props.placeholder}
        value={field.value ?? ''}
        disabled={field.disabled || props.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

type ToggleProps = { inlineLabel?: ReactNode; disabled?: boolean };

export function FormSwitch<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, boolean | null | undefined> & ToggleProps,
) {
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <Switch
        ref={field.ref}
        name={field.name}
        label={props.inlineLabel}
        checked={field.value ?? false}
        disabled={field.disabled || props.disabled}
        onChange={(event) => field.onChange(event.target.checked)}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

export function FormCheckbox<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, boolean | null | undefined> & ToggleProps,
) {
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <Checkbox
        ref={field.ref}
        name={field.name}
        label={props.inlineLabel}
        checked={field.value ?? false}
        disabled={field.disabled || props.disabled}
        onChange={(event) => field.onChange(event.target.checked)}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

export function FormCardRadio<Values extends FieldValues, Output, Value extends string>(
  props: BoundFieldProps<Values, Output, Value | undefined> & {
    options: readonly CardRadioOption<Value>[];
    disabled?: boolean;
  },
) {
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)} isGroup>
      <CardRadio
        ref={field.ref}
        name={field.name}
        options={props.options}
        value={field.value}
        disabled={field.disabled || props.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}
