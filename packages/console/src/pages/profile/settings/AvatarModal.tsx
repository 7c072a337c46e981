import { type Me, profileImageMaxBytes, profileImageMimeTypes } from '@gatehouse/schemas';
import { uploadUserAsset, useUserAssetsStatus } from '../../../api/me-account.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { ImageUploader } from '../../../components/ImageUploader/ImageUploader.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Profile.module.css';
import { useSaveProfile } from './use-save-profile.ts';

/** Spec §4/§5/§9: one image of the profile's types, up to 500 KB; uploaded, then saved as the avatar at once. */
export function AvatarModal({ me, onClose }: { me: Me; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const save = useSaveProfile();
  const status = useUserAssetsStatus();

  async function change(avatar: string | null) {
    if (await save({ avatar })) onClose();
  }

  return (
    <Modal
      isOpen
      title={t('avatar.title')}
      size="small"
      onClose={onClose}
      footer={
        <div className={styles.footer}>
          <Button onClick={onClose}>{t('cancel')}</Button>
        </div>
      }
    >
      {status.isPending ? (
        <Spinner />
      ) : status.data?.status === 'ready' ? (
        <div className={styles.form}>
          <p className={styles.muted}>{t('avatar.description')}</p>
          <ImageUploader
            upload={uploadUserAsset}
            onUploaded={(url) => void change(url)}
            value={me.avatar}
            onRemove={() => void change(null)}
            maxBytes={profileImageMaxBytes}
            mimeTypes={profileImageMimeTypes}
          />
        </div>
      ) : (
        <p role="alert">{t('avatar.unavailable')}</p>
      )}
    </Modal>
  );
}
