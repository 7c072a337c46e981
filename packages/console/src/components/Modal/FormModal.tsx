import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button.tsx';
import styles from './FormModal.module.css';
import { Modal, type ModalProps } from './Modal.tsx';

export type FormModalProps = {
  title: ReactNode;
  description?: ReactNode;
  submitText: ReactNode;
  isSubmitting: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  size?: ModalProps['size'];
  children: ReactNode;
};

/**
 * A dialog holding one form (create a user, reset a password): Enter submits, the footer's primary button is the
 * form's submit button (linked by id, since the footer sits outside the form), Cancel and Esc close.
 */
export function FormModal({
  title,
  description,
  submitText,
  isSubmitting,
  onSubmit,
  onClose,
  size = 'medium',
  children,
}: FormModalProps) {
  const { t } = useTranslation('components');
  const formId = useId();
  return (
    <Modal
      isOpen
      title={title}
      size={size}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('confirm.cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={isSubmitting}>
            {submitText}
          </Button>
        </>
      }
    >
      {/* noValidate: the schema's translated messages replace the browser's. */}
      <form
        id={formId}
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          // The dialog is portalled but stays in the page's React tree: its submit must not reach a form of the page.
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
