import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button/Button.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import styles from './FormDialog.module.css';

export type FormDialogProps = {
  title: ReactNode;
  description?: ReactNode;
  submitText: ReactNode;
  isSubmitting: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
};

/** A dialog holding one small form (a secret's name); Enter submits it and the footer's button is its submit. */
export function FormDialog({
  title,
  description,
  submitText,
  isSubmitting,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  const { t } = useTranslation('applications');
  const formId = useId();
  return (
    <Modal
      isOpen
      title={title}
      size="small"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={isSubmitting}>
            {submitText}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          // The dialog is portalled but still inside the page's React tree: its submit must not reach a page form.
          event.stopPropagation();
          onSubmit(event);
        }}
      >
        {description && <p className={styles.description}>{description}</p>}
        {children}
      </form>
    </Modal>
  );
}
