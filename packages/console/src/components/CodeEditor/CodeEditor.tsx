import { lazy, Suspense } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import styles from './CodeEditor.module.css';
import type { CodeEditorProps } from './code-editor-props.ts';

// CodeMirror is large, so only pages that show an editor download it, from our own server (no CDN).
const CodeMirrorEditor = lazy(() => import('./CodeMirrorEditor.tsx'));

/** A code field (JSON, JavaScript, TypeScript) with highlighting, brackets and undo; Tab leaves it like any field. */
export function CodeEditor(props: CodeEditorProps) {
  const { t } = useTranslation('components');
  return (
    <Suspense
      fallback={
        <div className={classNames(styles.editor, styles.loading, props.className)} role="status">
          {t('code_editor.loading')}
        </div>
      }
    >
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
