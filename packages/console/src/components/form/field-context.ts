import { createContext, useContext } from 'react';

/** What a FormField hands to the control inside it, so ids, descriptions and errors line up without wiring. */
export type FieldContextValue = {
  controlId: string;
  labelId: string;
  describedBy: string | undefined;
  isInvalid: boolean;
  isRequired: boolean;
  testId: string;
};

export const FieldContext = createContext<FieldContextValue | null>(null);

type OwnProps = {
  id?: string | undefined;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: boolean | 'true' | 'false' | 'grammar' | 'spelling' | undefined;
  'aria-required'?: boolean | 'true' | 'false' | undefined;
  'data-testid'?: string | undefined;
};

/** The field's wiring merged under the control's own props (own props win; descriptions add up). */
export function useFieldControlProps(own: OwnProps) {
  const field = useContext(FieldContext);
  const describedBy = [field?.describedBy, own['aria-describedby']].filter(Boolean).join(' ');
  return {
    id: own.id ?? field?.controlId,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': own['aria-invalid'] ?? (field?.isInvalid || undefined),
    // aria-required, not required: native validation bubbles would compete with the form's own messages.
    'aria-required': own['aria-required'] ?? (field?.isRequired || undefined),
    'data-testid': own['data-testid'] ?? field?.testId,
  };
}

export function useFieldLabelId(): string | undefined {
  return useContext(FieldContext)?.labelId;
}
