import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button/Button.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import styles from './Profile.module.css';

export type FormModalProps = {
  title: ReactNode;
  description?: ReactNode;
  submitText?: ReactNode;
  isSubmitting: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
};

/** A dialog holding one small form of the profile; Enter submits it and the footer's button is its submit button. */
export function FormModal({
  title,
  description,
  submitText,
  isSubmitting,
  onSubmit,
  onClose,
  children,
}: FormModalProps) {
  const { t } = useTranslation('profile');
  const formId = useId();
  return (
    <Modal
      isOpen
      title={title}
      size="small"
      onClose={onClose}
      footer={
        <div className={styles.footer}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={isSubmitting}>
            {submitText ?? t('save')}
          </Button>
        </div>
      }
    >
      <form id={formId} className={styles.form} noValidate onSubmit={onSubmit}>
        {description && <p className={styles.muted}>{description}</p>}
        {children}
      </form>
    </Modal>
  );
}
