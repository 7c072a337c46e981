export type CodeLanguage = 'json' | 'javascript' | 'typescript' | 'plain';

export type CodeEditorProps = {
  value: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  language?: CodeLanguage;
  isReadOnly?: boolean;
  /** Used when the editor is not inside a FormField (which names it through its label). */
  'aria-label'?: string;
  /** Lines the editor shows before it scrolls. */
  minLines?: number;
  className?: string;
};
