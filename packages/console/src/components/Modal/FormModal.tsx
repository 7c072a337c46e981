import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
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
  /** 'alertdialog' for a typed confirmation (delete a tenant), whose description then names the dialog's question. */
  role?: ModalProps['role'];
  /** The submit button destroys something: it turns red. */
  isDanger?: boolean;
  /** Keeps the submit button disabled, e.g. until a confirmation is typed. */
  isSubmitDisabled?: boolean;
  children: ReactNode;
};

/**
 * The console's one dialog holding one form (create a user, rename a secret, invite members): Enter submits, the
 * footer's primary button is the form's submit button (linked by id, since the footer sits outside the form), Cancel
 * and Esc close.
 */
export function FormModal({
  title,
  description,
  submitText,
  isSubmitting,
  onSubmit,
  onClose,
  size = 'medium',
  role,
  isDanger = false,
  isSubmitDisabled = false,
  children,
}: FormModalProps) {
  const { t } = useTranslation('components');
  const formId = useId();
  return (
    <Modal
      isOpen
      title={title}
      size={size}
      role={role}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('confirm.cancel')}</Button>
          <Button
            variant={isDanger ? 'danger' : 'primary'}
            type="submit"
            form={formId}
            disabled={isSubmitDisabled}
            isLoading={isSubmitting}
          >
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
