import type { FieldValues } from 'react-hook-form';
import { type EmailChip, EmailChipInput } from '../EmailChipInput.tsx';
import { FormField } from '../FormField.tsx';
import { MultiTextInput } from '../MultiTextInput.tsx';
import { type BoundFieldProps, fieldProps, listErrors, useBoundField } from './use-bound-field.ts';

export function FormMultiTextInput<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, string[] | undefined> & {
    itemLabel: string;
    placeholder?: string;
    disabled?: boolean;
  },
) {
  const { field, error } = useBoundField(props);
  const errors = listErrors(error);
  return (
    <FormField {...fieldProps(props, undefined)} error={errors.list}>
      <MultiTextInput
        ref={field.ref}
        values={field.value ?? []}
        errors={errors.items}
        itemLabel={props.itemLabel}
        placeholder={props.placeholder}
        disabled={field.disabled || props.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

export function FormEmailChipInput<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, EmailChip[] | undefined> & { placeholder?: string; disabled?: boolean },
) {
  const { field, error } = useBoundField(props);
  const errors = listErrors(error);
  return (
    <FormField {...fieldProps(props, undefined)} error={errors.list ?? errors.items.find(Boolean)}>
      <EmailChipInput
        ref={field.ref}
        values={field.value ?? []}
        placeholder={props.placeholder}
        disabled={field.disabled || props.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}
