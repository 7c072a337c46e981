import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button/Button.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import styles from './ApiResources.module.css';

export type FormDialogProps = {
  title: ReactNode;
  submitText: ReactNode;
  isSubmitting: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
};

/** A dialog holding one small form of this area; Enter submits it and the footer's button is its submit button. */
export function FormDialog({ title, submitText, isSubmitting, onSubmit, onClose, children }: FormDialogProps) {
  const { t } = useTranslation('api_resources');
  const formId = useId();
  return (
    <Modal
      isOpen
      title={title}
      onClose={onClose}
      footer={
        <div className={styles.footer}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={isSubmitting}>
            {submitText}
          </Button>
        </div>
      }
    >
      {/* noValidate: the schema's messages replace the browser's. */}
      <form id={formId} className={styles.form} noValidate onSubmit={onSubmit}>
        {children}
      </form>
    </Modal>
  );
}
