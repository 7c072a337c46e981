import type { AccountDeletionBlocker } from '@gatehouse/schemas';
import { useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { useAccountDeletionPreview, useDeleteAccount } from '../../../api/me-delete.ts';
import { signOut } from '../../../auth/session.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import { VerifyPasswordDialog } from '../password/VerifyPasswordModal.tsx';
import type { ProfileSectionProps } from '../section-props.ts';
import { blockersOfRefusal } from './blockers.ts';
import {
  BlockedModal,
  CheckFailedModal,
  CheckingModal,
  DeletingModal,
  FailedModal,
  ReviewModal,
} from './DeleteAccountModals.tsx';

/** Where the flow stands; one dialog at a time. */
type Step =
  | { kind: 'idle' }
  /** The guard and the review: both read the server's preview. */
  | { kind: 'review' }
  /** The deletion refused at the last moment (something changed since the preview). */
  | { kind: 'blocked'; blockers: AccountDeletionBlocker[] }
  | { kind: 'verify' }
  | { kind: 'deleting' }
  | { kind: 'failed'; message: string; requestId: string | undefined };

/**
 * Spec §2.12 "Delete account" (cloud only) and §4's flow: the guard (tenants that would be deleted while someone pays
 * for them block it), the review (tenants deleted and tenants left), the final confirmation (the password, when the
 * account has one), the deleting state; a failure shows the request id, a success signs out.
 */
export function DeleteAccountSection({ me }: ProfileSectionProps) {
  const { t } = useTranslation('profile');
  const confirm = useConfirm();
  const { mutateAsync: deleteAccount } = useDeleteAccount();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const close = () => setStep({ kind: 'idle' });

  async function remove(verificationRecordId: string | undefined) {
    setStep({ kind: 'deleting' });
    try {
      await deleteAccount(verificationRecordId === undefined ? {} : { verificationRecordId });
    } catch (error) {
      const blockers = blockersOfRefusal(error);
      if (blockers) setStep({ kind: 'blocked', blockers });
      else
        setStep({
          kind: 'failed',
          message: error instanceof Error ? error.message : String(error),
          requestId: error instanceof ApiError ? error.requestId : undefined,
        });
      return;
    }
    // The account is gone: its session ends here (spec §7 `DELETE /api/me`: then sign out).
    await signOut();
  }

  /** Step 3: the password is the final confirmation; an account without one confirms in words. */
  async function confirmFinally() {
    if (me.hasPassword) {
      setStep({ kind: 'verify' });
      return;
    }
    close();
    const isConfirmed = await confirm({
      title: t('delete_account.final_title'),
      content: t('delete_account.final_content'),
      confirmText: t('delete_account.submit'),
      isDanger: true,
    });
    if (isConfirmed) await remove(undefined);
  }

  return (
    <Card title={t('delete_account.title')}>
      <dl className={styles.rows}>
        <ProfileRow
          label={t('delete_account.label')}
          value={<span className={styles.muted}>{t('delete_account.description')}</span>}
          action={
            <Button
              variant="dangerOutline"
              size="small"
              aria-label={t('delete_account.title')}
              onClick={() => setStep({ kind: 'review' })}
            >
              {t('delete_account.delete')}
            </Button>
          }
        />
      </dl>

      {step.kind === 'review' && <ReviewStep onContinue={confirmFinally} onClose={close} />}
      {step.kind === 'blocked' && <BlockedModal blockers={step.blockers} onClose={close} />}
      {step.kind === 'verify' && (
        <VerifyPasswordDialog
          description={t('delete_account.verify_description')}
          submitText={t('delete_account.submit')}
          isDanger
          onVerified={remove}
          onClose={close}
        />
      )}
      {step.kind === 'deleting' && <DeletingModal />}
      {step.kind === 'failed' && <FailedModal message={step.message} requestId={step.requestId} onClose={close} />}
    </Card>
  );
}

/** Steps 1 and 2 on the server's preview: the guard when something blocks, else the tenants deleted and left. */
function ReviewStep({ onContinue, onClose }: { onContinue: () => unknown; onClose: () => void }) {
  const preview = useAccountDeletionPreview();
  if (preview.isPending) return <CheckingModal onClose={onClose} />;
  if (preview.isError) return <CheckFailedModal onRetry={() => preview.refetch()} onClose={onClose} />;
  if (preview.data.blockers.length) return <BlockedModal blockers={preview.data.blockers} onClose={onClose} />;
  return <ReviewModal preview={preview.data} onContinue={onContinue} onClose={onClose} />;
}
