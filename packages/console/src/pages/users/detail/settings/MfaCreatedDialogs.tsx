import { Button } from '../../../../components/Button/Button.tsx';
import { CodeBlock } from '../../../../components/CodeBlock/CodeBlock.tsx';
import { CopyableValue } from '../../../../components/CopyButton/CopyButton.tsx';
import { saveFile } from '../../../../components/ExportMenu/download.ts';
import { Modal } from '../../../../components/Modal/Modal.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import passwordStyles from '../../password/Password.module.css';
import { backupCodesFileName, backupCodesFileText } from './mfa-factors.ts';
import styles from './Settings.module.css';

/**
 * What the server shows once when an admin adds a factor: nothing here can be read again later, so each dialog has
 * one way out ('I have saved it') and is not dismissed by a stray click.
 */

type TotpProps = { userName: string; secret: string; secretQrCode: string; onDone: () => void };

/** The new authenticator app factor: its QR code to scan and the secret to type in instead. */
export function TotpCreatedDialog({ userName, secret, secretQrCode, onDone }: TotpProps) {
  const { t } = useTranslation('users');
  return (
    <Modal
      isOpen
      title={t('mfa.totp_created_title')}
      onClose={onDone}
      hasCloseButton={false}
      footer={
        <Button variant="primary" onClick={onDone} data-autofocus>
          {t('mfa.done')}
        </Button>
      }
    >
      <div className={passwordStyles.shown}>
        <p className={passwordStyles.text}>{t('mfa.totp_created_intro', { name: userName })}</p>
        {/* A data: URL (the server's SVG); the console's CSP allows data: images. */}
        <img className={styles.qrCode} src={secretQrCode} alt={t('mfa.qr_alt')} width={200} height={200} />
        <p className={passwordStyles.text}>{t('mfa.secret_label')}</p>
        <div className={passwordStyles.value}>
          <CopyableValue value={secret} label={t('mfa.copy_secret')} />
        </div>
        <p className={passwordStyles.warning} role="note">
          {t('mfa.shown_once_warning')}
        </p>
      </div>
    </Modal>
  );
}

type BackupCodesProps = { userName: string; codes: readonly string[]; onDone: () => void };

/** The new backup codes, one a line, to copy all at once or download as a text file. */
export function BackupCodesCreatedDialog({ userName, codes, onDone }: BackupCodesProps) {
  const { t } = useTranslation('users');
  const text = codes.join('\n');
  const download = () =>
    saveFile(
      new Blob([backupCodesFileText(t('mfa.backup_codes_file_heading', { name: userName }), codes)], {
        type: 'text/plain;charset=utf-8',
      }),
      backupCodesFileName(userName),
    );
  return (
    <Modal
      isOpen
      title={t('mfa.backup_codes_created_title')}
      onClose={onDone}
      hasCloseButton={false}
      footer={
        <>
          <Button onClick={download}>{t('mfa.download_codes')}</Button>
          <Button variant="primary" onClick={onDone} data-autofocus>
            {t('mfa.done')}
          </Button>
        </>
      }
    >
      <div className={passwordStyles.shown}>
        <p className={passwordStyles.text}>{t('mfa.backup_codes_created_intro', { name: userName })}</p>
        <CodeBlock code={text} label={t('mfa.backup_codes_label')} copyLabel={t('mfa.copy_codes')} />
        <p className={passwordStyles.warning} role="note">
          {t('mfa.shown_once_warning')}
        </p>
      </div>
    </Modal>
  );
}
