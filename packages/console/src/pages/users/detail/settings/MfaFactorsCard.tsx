import type {
  User,
  UserMfaVerification,
  UserMfaVerificationCreate,
  UserMfaVerificationCreated,
} from '@gatehouse/schemas';
import { useId, useState } from 'react';
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
import { UserText } from '../../../../components/UserText.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../use-date-time-format.ts';
import { userDisplayName } from '../../user-display.ts';
import { BackupCodesCreatedDialog, TotpCreatedDialog } from './MfaCreatedDialogs.tsx';
import { mfaFactorActions, passkeyRow } from './mfa-factors.ts';
import styles from './Settings.module.css';

/**
 * What the card says about a factor: its row's title and second line, its remove button, the confirmation and the
 * message once removed.
 */
function useFactorWording(user: User) {
  const { t } = useTranslation('users');
  const formatTime = useDateTimeFormat();
  const name = userDisplayName(user) ?? user.id;

  /** What the row, its remove button, the confirmation and the message say about a factor. */
  function wording(verification: UserMfaVerification) {
    if (verification.type !== 'WebAuthn') {
      const factor = t(`mfa.types.${verification.type}`);
      return {
        title: factor,
        removeLabel: t('mfa.remove_named', { factor }),
        confirmTitle: t('mfa.remove_title'),
        confirmContent: t('mfa.remove_content', { factor, name }),
        removed: t('mfa.removed', { factor }),
      };
    }
    const passkey = passkeyRow(verification).name;
    return passkey
      ? {
          title: <UserText>{passkey}</UserText>,
          removeLabel: t('mfa.remove_passkey_named', { passkey }),
          confirmTitle: t('mfa.remove_passkey_title'),
          confirmContent: t('mfa.remove_passkey_content', { passkey, name }),
          removed: t('mfa.passkey_removed', { passkey }),
        }
      : {
          title: t('mfa.passkey_unnamed'),
          removeLabel: t('mfa.remove_unnamed_passkey', { time: formatTime(verification.createdAt) }),
          confirmTitle: t('mfa.remove_passkey_title'),
          confirmContent: t('mfa.remove_unnamed_passkey_content', { name }),
          removed: t('mfa.unnamed_passkey_removed'),
        };
  }

  /** The row's second line: a passkey's kind, then when it was added and last used, and the codes left. */
  function details(row: UserMfaVerification): string {
    const kind = row.type === 'WebAuthn' ? passkeyRow(row).kind : undefined;
    return [
      kind && t(`mfa.passkey_${kind}`),
      t('mfa.added', { time: formatTime(row.createdAt) }),
      row.lastUsedAt === null ? t('mfa.never_used') : t('mfa.last_used', { time: formatTime(row.lastUsedAt) }),
      row.remainCodes === undefined ? undefined : t('mfa.remain_codes', { count: row.remainCodes }),
    ]
      .filter(Boolean)
      .join(' · ');
  }

  return { wording, details };
}

/**
 * The user's MFA factors (spec §3 `mfaVerifications`): each with when it was added and last used, backup codes with
 * how many are left, each passkey (WebAuthn) on a row of its own with its name and whether it is synced; an admin can
 * add an authenticator app (TOTP) or backup codes, shown once, and remove a factor. A passkey needs the user's own
 * authenticator, so only the user adds one.
 */
export function MfaFactorsCard({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const confirm = useConfirm();
  const toast = useToast();
  const { wording, details } = useFactorWording(user);
  const verifications = useUserMfaVerifications(user.id);
  const create = useCreateUserMfaVerification(user.id);
  const remove = useDeleteUserMfaVerification(user.id);
  const [created, setCreated] = useState<UserMfaVerificationCreated>();
  const backupCodesHintId = useId();
  const name = userDisplayName(user) ?? user.id;
  const rows = verifications.data ?? [];
  const actions = mfaFactorActions(rows);

  async function add(type: UserMfaVerificationCreate['type']) {
    try {
      setCreated(await create.mutateAsync({ type }));
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
  }

  async function removeFactor(verification: UserMfaVerification) {
    const words = wording(verification);
    const isConfirmed = await confirm({
      title: words.confirmTitle,
      content: words.confirmContent,
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
    toast.success(words.removed);
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
          {rows.map((row) => {
            const words = wording(row);
            return (
              <li key={row.id} className={styles.identity}>
                <span className={styles.identityText}>
                  <span className={styles.identityTarget}>{words.title}</span>
                  <span className={styles.muted}>{details(row)}</span>
                </span>
                <Button
                  variant="text"
                  size="small"
                  aria-label={words.removeLabel}
                  onClick={() => void removeFactor(row)}
                >
                  {t('mfa.remove')}
                </Button>
              </li>
            );
          })}
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
          <span className={styles.muted}>{t('mfa.passkeys_by_user')}</span>
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
