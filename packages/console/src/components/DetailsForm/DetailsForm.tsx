import { type FormEventHandler, type ReactNode, useRef } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { classNames } from '../class-names.ts';
import styles from './DetailsForm.module.css';
import { useSaveBarSpace } from './save-bar-space.ts';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.ts';

export type DetailsFormProps = {
  isDirty: boolean;
  isSubmitting: boolean;
  /** Usually react-hook-form's handleSubmit(submitWith(save)). */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Usually the form's reset(): back to the loaded values. */
  onDiscard: () => void;
  /** Paths that are still this form (its tabs, when one form spans several): leaving to them does not ask. */
  staysOnPage?: (pathname: string) => boolean;
  className?: string;
  children: ReactNode;
};

/**
 * The layout of a details tab: its cards, and a save bar that sticks to the bottom while there is something to
 * save, with room kept for it when the browser scrolls a control into view. Leaving with unsaved changes asks first (not while a save is running, which may navigate on success).
 */
export function DetailsForm({
  isDirty,
  isSubmitting,
  onSubmit,
  onDiscard,
  staysOnPage,
  className,
  children,
}: DetailsFormProps) {
  const { t } = useTranslation('components');
  useUnsavedChangesGuard(isDirty && !isSubmitting, staysOnPage);
  const saveBar = useRef<HTMLElement>(null);
  // The bar sticks to the bottom of the window: what is scrolled into view stops above it (issue 40, item 8).
  useSaveBarSpace(saveBar, isDirty);
  return (
    // noValidate: the schema's messages replace the browser's bubbles.
    <form className={classNames(styles.form, className)} onSubmit={onSubmit} noValidate>
      <div className={styles.content}>{children}</div>
      {isDirty && (
        <section ref={saveBar} className={styles.saveBar} aria-label={t('details_form.save_bar')}>
          <p className={styles.message}>{t('details_form.unsaved')}</p>
          <Button onClick={onDiscard} disabled={isSubmitting}>
            {t('details_form.discard')}
          </Button>
          <Button type="submit" variant="primary" isLoading={isSubmitting}>
            {t('details_form.save')}
          </Button>
        </section>
      )}
    </form>
  );
}
