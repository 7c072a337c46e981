import type { FieldValues } from 'react-hook-form';
import { CodeEditor } from '../../CodeEditor/CodeEditor.tsx';
import type { CodeEditorProps } from '../../CodeEditor/code-editor-props.ts';
import { FormField } from '../FormField.tsx';
import { type BoundFieldProps, fieldProps, useBoundField } from './use-bound-field.ts';

/** A code field bound to react-hook-form; the form's schema validates the text (JSON, a script). */
export function FormCodeEditor<Values extends FieldValues, Output>(
  props: BoundFieldProps<Values, Output, string | null | undefined> &
    Omit<CodeEditorProps, 'value' | 'onChange' | 'onBlur' | 'className'>,
) {
  const { name, control, label, isRequired, description, note, className, ...editorProps } = props;
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <CodeEditor
        {...editorProps}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        isReadOnly={field.disabled || editorProps.isReadOnly}
      />
    </FormField>
  );
}
