import { Button } from '../../../components/Button/Button.tsx';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { saveFile } from '../../../components/ExportMenu/download.ts';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { backupCodesFileName, backupCodesFileText } from '../../users/detail/settings/mfa-factors.ts';
import styles from './Security.module.css';

export type BackupCodesModalProps = {
  /** The account in the file's name and heading: its username, email or id. */
  account: string;
  codes: readonly string[];
  onDone: () => void;
};

/**
 * The backup codes the server made with the account's first factor, shown this once (as on a user's MFA card): to
 * copy or download, with one way out, 'I have saved them'.
 */
export function BackupCodesModal({ account, codes, onDone }: BackupCodesModalProps) {
  const { t } = useTranslation('profile');
  const download = () =>
    saveFile(
      new Blob([backupCodesFileText(t('mfa.backup_codes_file_heading', { name: account }), codes)], {
        type: 'text/plain;charset=utf-8',
      }),
      backupCodesFileName(account),
    );
  return (
    <Modal
      isOpen
      title={t('mfa.backup_codes_title')}
      onClose={onDone}
      hasCloseButton={false}
      footer={
        <>
          <Button onClick={download}>{t('mfa.download_codes')}</Button>
          <Button variant="primary" onClick={onDone} data-autofocus>
            {t('mfa.saved_them')}
          </Button>
        </>
      }
    >
      <div className={styles.shown}>
        <p className={styles.text}>{t('mfa.backup_codes_intro')}</p>
        <CodeBlock code={codes.join('\n')} label={t('mfa.backup_codes')} copyLabel={t('mfa.copy_codes')} />
        <p className={styles.warning} role="note">
          {t('mfa.shown_once')}
        </p>
      </div>
    </Modal>
  );
}
