import type { User, UserMfaVerification, UserMfaVerificationCreated } from '@gatehouse/schemas';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateUserMfaVerification,
  useDeleteUserMfaVerification,
  useUserMfaVerifications,
} from '../../../../api/users.ts';
import { PlanGate } from '../../../../cloud/quota/PlanGate.tsx';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { useConfirm } from '../../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useDateTimeFormat } from '../../use-date-time-format.ts';
import { userDisplayName } from '../../user-display.ts';
import { BackupCodesCreatedDialog, TotpCreatedDialog } from './MfaCreatedDialogs.tsx';
import { mfaFactorActions } from './mfa-factors.ts';
import styles from './Settings.module.css';

/**
 * The user's MFA factors (spec §3 `mfaVerifications`): each with when it was added and last used, backup codes with
 * how many are left; an admin can add an authenticator app (TOTP) or backup codes, shown once, and remove a factor.
 */
export function MfaFactorsCard({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const confirm = useConfirm();
  const toast = useToast();
  const formatTime = useDateTimeFormat();
  const verifications = useUserMfaVerifications(user.id);
  const create = useCreateUserMfaVerification(user.id);
  const remove = useDeleteUserMfaVerification(user.id);
  const [created, setCreated] = useState<UserMfaVerificationCreated>();
  const backupCodesHintId = useId();
  const name = userDisplayName(user) ?? user.id;
  const rows = verifications.data ?? [];
  const actions = mfaFactorActions(rows);

  async function add(type: 'Totp' | 'BackupCode') {
    try {
      setCreated(await create.mutateAsync({ type }));
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
  }

  async function removeFactor(verification: UserMfaVerification) {
    const factor = t(`mfa.types.${verification.type}`);
    const isConfirmed = await confirm({
      title: t('mfa.remove_title'),
      content: t('mfa.remove_content', { factor, name }),
      confirmText: t('mfa.remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(verification.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('mfa.removed', { factor }));
  }

  const backupCodesHint = actions.backupCodesBlockedBy && t(`mfa.backup_codes_${actions.backupCodesBlockedBy}`);

  return (
    <Card title={t('mfa.title')} description={t('mfa.description')}>
      {verifications.isPending ? (
        <p className={styles.muted}>{t('mfa.loading')}</p>
      ) : verifications.isError ? (
        <p className={styles.muted} role="alert">
          {t('mfa.load_failed')}
        </p>
      ) : rows.length === 0 ? (
        <p className={styles.muted}>{t('mfa.empty')}</p>
      ) : (
        <ul className={styles.identities} aria-label={t('mfa.title')}>
          {rows.map((row) => (
            <li key={row.id} className={styles.identity}>
              <span className={styles.identityText}>
                <span className={styles.identityTarget}>{t(`mfa.types.${row.type}`)}</span>
                <span className={styles.muted}>
                  {[
                    t('mfa.added', { time: formatTime(row.createdAt) }),
                    row.lastUsedAt === null
                      ? t('mfa.never_used')
                      : t('mfa.last_used', { time: formatTime(row.lastUsedAt) }),
                    row.remainCodes === undefined ? undefined : t('mfa.remain_codes', { count: row.remainCodes }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
              <Button
                variant="text"
                size="small"
                aria-label={t('mfa.remove_named', { factor: t(`mfa.types.${row.type}`) })}
                onClick={() => void removeFactor(row)}
              >
                {t('mfa.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {verifications.isSuccess && (
        <div className={styles.mfaActions}>
          <PlanGate quota="mfaEnabled" />
          {actions.canAddTotp && (
            <Button onClick={() => add('Totp')} isLoading={create.isPending && create.variables?.type === 'Totp'}>
              {t('mfa.add_totp')}
            </Button>
          )}
          <Button
            onClick={() => add('BackupCode')}
            disabled={actions.backupCodesBlockedBy !== undefined}
            aria-describedby={backupCodesHint ? backupCodesHintId : undefined}
            isLoading={create.isPending && create.variables?.type === 'BackupCode'}
          >
            {t('mfa.generate_backup_codes')}
          </Button>
          {backupCodesHint && (
            <span id={backupCodesHintId} className={styles.muted}>
              {backupCodesHint}
            </span>
          )}
        </div>
      )}
      {created?.type === 'Totp' && (
        <TotpCreatedDialog
          userName={name}
          secret={created.secret}
          secretQrCode={created.secretQrCode}
          onDone={() => setCreated(undefined)}
        />
      )}
      {created?.type === 'BackupCode' && (
        <BackupCodesCreatedDialog userName={name} codes={created.codes} onDone={() => setCreated(undefined)} />
      )}
    </Card>
  );
}
