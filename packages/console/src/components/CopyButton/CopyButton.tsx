import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { CheckIcon, CopyIcon } from '../icons.tsx';
import styles from './CopyButton.module.css';

/** How long the 'Copied' confirmation stays before the button reads 'Copy' again. */
export const copiedFeedbackMs = 2000;

export type CopyButtonProps = {
  value: string;
  /** What is copied, for screen readers ('Copy client ID'). */
  label: string;
  className?: string;
};

/** Copies a value (an id, an endpoint, a secret shown once) and says so, in words as well as the icon. */
export function CopyButton({ value, label, className }: CopyButtonProps) {
  const { t } = useTranslation('components');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), copiedFeedbackMs);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access can be refused (permissions, an insecure origin); say so rather than pretend.
      setState('failed');
    }
  }

  return (
    <button type="button" className={classNames(styles.button, className)} onClick={copy} aria-label={label}>
      {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
      <span className={styles.status} role="status">
        {state === 'copied' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : ''}
      </span>
    </button>
  );
}

/** A value in monospace with its copy button: client ids, endpoints, entity ids. */
export function CopyableValue({ value, label }: { value: string; label: string }) {
  return (
    <span className={styles.copyable}>
      <code className={styles.value}>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
