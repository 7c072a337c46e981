import { CopyButton } from '../CopyButton/CopyButton.tsx';
import styles from './CodeBlock.module.css';

/**
 * Read-only code as text in <pre><code>: there is nothing to edit, so no editor chunk to load; the text is selectable
 * and read by screen readers as it is. Code reads left to right in every language.
 */
export function CodeBlock({ code, label, copyLabel }: { code: string; label: string; copyLabel: string }) {
  return (
    <div className={styles.codeBlock}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard. */}
      <section className={styles.scroller} aria-label={label} tabIndex={0}>
        <pre className={styles.pre}>
          <code>{code}</code>
        </pre>
      </section>
      <CopyButton value={code} label={copyLabel} className={styles.copy} />
    </div>
  );
}
