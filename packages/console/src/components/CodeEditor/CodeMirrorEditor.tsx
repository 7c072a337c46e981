import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import {
  bracketMatching,
  HighlightStyle,
  indentOnInput,
  type LanguageSupport,
  syntaxHighlighting,
} from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { classNames } from '../class-names.ts';
import { useFieldControlProps, useFieldLabelId } from '../form/field-context.ts';
import styles from './CodeEditor.module.css';
import type { CodeEditorProps, CodeLanguage } from './code-editor-props.ts';

/**
 * CodeMirror injects its stylesheet in a <style> element, which the server's CSP allows only with the response's
 * nonce; the build puts it on this meta tag (vite html.cspNonce) and the server fills it in per response.
 */
function cspNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
}

/** Colours from the design tokens, so the editor follows light and dark like the rest of the console. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: 'var(--color-primary)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--color-success)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--color-danger)' },
  { tag: [tags.propertyName, tags.definition(tags.variableName)], color: 'var(--color-text)', fontWeight: '600' },
  { tag: tags.comment, color: 'var(--color-text-muted)', fontStyle: 'italic' },
]);

const theme = EditorView.theme({
  '&': { color: 'var(--color-text)', backgroundColor: 'var(--color-surface)' },
  '.cm-content': { caretColor: 'var(--color-text)', fontFamily: 'var(--font-family-code, ui-monospace, monospace)' },
  '.cm-gutters': { backgroundColor: 'var(--color-background)', color: 'var(--color-text-muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--color-hover) 60%, transparent)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--color-primary-surface)' },
  '&.cm-focused': { outline: 'none' },
});

function languageSupport(language: CodeLanguage): LanguageSupport | [] {
  if (language === 'json') return json();
  if (language === 'javascript') return javascript();
  if (language === 'typescript') return javascript({ typescript: true });
  return [];
}

/** The CodeMirror 6 view behind CodeEditor; loaded lazily by it. */
export default function CodeMirrorEditor({
  value,
  onChange,
  onBlur,
  language = 'plain',
  isReadOnly = false,
  'aria-label': ariaLabel,
  minLines = 6,
  className,
}: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView>(undefined);
  const callbacks = useRef({ onChange, onBlur });
  callbacks.current = { onChange, onBlur };
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment(), aria: new Compartment() });
  const field = useFieldControlProps({});
  const labelId = useFieldLabelId();

  const ariaAttributes: Record<string, string> = {
    role: 'textbox',
    'aria-multiline': 'true',
    ...(labelId ? { 'aria-labelledby': labelId } : ariaLabel ? { 'aria-label': ariaLabel } : {}),
    ...(field['aria-describedby'] && { 'aria-describedby': field['aria-describedby'] }),
    ...(field['aria-invalid'] && { 'aria-invalid': 'true' }),
    ...(field.id && { id: field.id }),
    ...(field['data-testid'] && { 'data-testid': field['data-testid'] }),
    // Read-only content is not editable, so CodeMirror drops it from the tab order; a keyboard user still has to
    // reach it to scroll and select (axe scrollable-region-focusable). Editable content is in the tab order already,
    // but axe counts only a tabindex as focusable: without it, a long line (a scrolling editor) is a violation.
    tabindex: '0',
    ...(isReadOnly && { 'aria-readonly': 'true' }),
  };
  const ariaKey = JSON.stringify(ariaAttributes);

  // Created once; the effects below reconfigure it instead of rebuilding (which would lose the undo history).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the later effects keep the view in step with props.
  useEffect(() => {
    const { language: languageSlot, readOnly, aria } = compartments.current;
    const extensions: Extension[] = [
      lineNumbers(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      syntaxHighlighting(highlight),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      theme,
      EditorView.cspNonce.of(cspNonce()),
      languageSlot.of(languageSupport(language)),
      readOnly.of([EditorState.readOnly.of(isReadOnly), EditorView.editable.of(!isReadOnly)]),
      aria.of(EditorView.contentAttributes.of(ariaAttributes)),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) callbacks.current.onChange?.(update.state.doc.toString());
        if (update.focusChanged && !update.view.hasFocus) callbacks.current.onBlur?.();
      }),
    ];
    const view = new EditorView({ parent: hostRef.current ?? undefined, doc: value, extensions });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = undefined;
    };
  }, []);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === value) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: compartments.current.language.reconfigure(languageSupport(language)) });
  }, [language]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.readOnly.reconfigure([
        EditorState.readOnly.of(isReadOnly),
        EditorView.editable.of(!isReadOnly),
      ]),
    });
  }, [isReadOnly]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: ariaKey stands for ariaAttributes' content.
  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.aria.reconfigure(EditorView.contentAttributes.of(ariaAttributes)),
    });
  }, [ariaKey]);

  return (
    <div
      ref={hostRef}
      className={classNames(styles.editor, className)}
      style={{ minHeight: `calc(${minLines} * var(--code-line-height))` }}
    />
  );
}
