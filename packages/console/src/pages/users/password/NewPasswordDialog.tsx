import { Button } from '../../../components/Button/Button.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './Password.module.css';

type Props = { title: string; userName: string; password: string; onDone: () => void };

/**
 * A generated password, shown this one time (the server keeps only its hash): copy button, a warning to hand it over
 * securely, and one way out, so it is not dismissed by a stray click outside.
 */
export function NewPasswordDialog({ title, userName, password, onDone }: Props) {
  const { t } = useTranslation('users');
  return (
    <Modal
      isOpen
      title={title}
      onClose={onDone}
      hasCloseButton={false}
      footer={
        <Button variant="primary" onClick={onDone}>
          {t('password.done')}
        </Button>
      }
    >
      <div className={styles.shown}>
        <p className={styles.text}>{t('password.shown_once_intro', { name: userName })}</p>
        <div className={styles.value}>
          <CopyableValue value={password} label={t('password.copy')} />
        </div>
        <p className={styles.warning} role="note">
          {t('password.shown_once_warning')}
        </p>
      </div>
    </Modal>
  );
}
