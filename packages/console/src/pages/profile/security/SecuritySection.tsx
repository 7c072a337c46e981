import type { MeMfaVerificationCreated, MeTotpSecret, UserMfaVerification } from '@gatehouse/schemas';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useCallback, useId, useMemo, useState } from 'react';
import {
  useCreateTotpSecret,
  useMyMfaVerifications,
  useRemoveMfaVerification,
  useStartPasskeyRegistration,
} from '../../../api/me-account.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import { VerifyPasswordDialog } from '../password/VerifyPasswordModal.tsx';
import type { ProfileSectionProps } from '../section-props.ts';
import { BackupCodesModal } from './BackupCodesModal.tsx';
import { PasskeyNameModal } from './PasskeyNameModal.tsx';
import { defaultPasskeyName } from './passkey-name.ts';
import own from './Security.module.css';
import { TotpSetupModal } from './TotpSetupModal.tsx';
import { browserSupportsWebAuthn, createPasskey, passkeyRefusal, preloadPasskeyLibrary } from './webauthn.ts';

/** What the user set out to do; proof of the password comes first when the account has one. */
type Intent =
  | { kind: 'passkey' }
  | { kind: 'totp' }
  | { kind: 'remove'; verification: UserMfaVerification; removed: string };

/** The one dialog open over the section, if any. */
type Dialog =
  | { kind: 'verify'; intent: Intent }
  | { kind: 'passkey-name'; ticket: string; response: RegistrationResponseJSON; defaultName: string }
  | { kind: 'totp'; setup: MeTotpSecret }
  | { kind: 'backup-codes'; codes: string[] };

/** Times of the account's factors in the interface language: 'Nov 21, 2026, 4:38 PM'. */
function useDateTimeFormat(): (epochMs: number) => string {
  const { i18n } = useTranslation();
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  return useCallback((epochMs: number) => format.format(epochMs), [format]);
}

/**
 * The account's second factors: its passkeys (any number), its authenticator app (one) and the backup codes the
 * server made with the first of them. Adding or removing one asks for the current password first, when there is one
 * (the same step as the password change); the server checks that proof.
 */
export function SecuritySection({ me }: ProfileSectionProps) {
  const { t } = useTranslation(['profile', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const formatTime = useDateTimeFormat();
  const verifications = useMyMfaVerifications();
  const { mutateAsync: startPasskeyRegistration } = useStartPasskeyRegistration();
  const { mutateAsync: createTotpSecret } = useCreateTotpSecret();
  const { mutateAsync: removeVerification } = useRemoveMfaVerification();
  const [dialog, setDialog] = useState<Dialog>();
  /** What became of the browser's passkey prompt when it made none: said calmly under the rows. */
  const [note, setNote] = useState<string>();
  const [canUseWebAuthn] = useState(browserSupportsWebAuthn);
  const unsupportedId = useId();
  const close = () => setDialog(undefined);

  const rows = verifications.data ?? [];
  const passkeys = rows.filter((row) => row.type === 'WebAuthn');
  const totp = rows.find((row) => row.type === 'Totp');
  const backupCodes = rows.find((row) => row.type === 'BackupCode');

  const passkeyName = (passkey: UserMfaVerification) => passkey.name ?? t('mfa.passkey');

  async function addPasskey(verificationRecordId: string | undefined) {
    const { options, ticket } = await startPasskeyRegistration({ verificationRecordId });
    let response: RegistrationResponseJSON;
    try {
      response = await createPasskey(options);
    } catch (error) {
      // The browser made nothing, so nothing was sent: the account is as it was.
      const refusal = passkeyRefusal(error);
      setDialog(undefined);
      if (refusal === 'failed') toast.error(t('mfa.passkey_failed'));
      else setNote(refusal === 'cancelled' ? t('mfa.passkey_cancelled') : t('mfa.passkey_exists'));
      return;
    }
    const defaultName = defaultPasskeyName(
      navigator.userAgent,
      (parts) => t('mfa.passkey_default_name', parts),
      t('mfa.passkey'),
    );
    setDialog({ kind: 'passkey-name', ticket, response, defaultName });
  }

  /** The intent's requests, with the proof when there is one; any dialog open (the verify step) closes after. */
  async function carryOut(intent: Intent, verificationRecordId: string | undefined) {
    try {
      if (intent.kind === 'passkey') {
        await addPasskey(verificationRecordId);
      } else if (intent.kind === 'totp') {
        const setup = await createTotpSecret({ verificationRecordId });
        setDialog({ kind: 'totp', setup });
      } else {
        await removeVerification({ id: intent.verification.id, verificationRecordId });
        setDialog(undefined);
        toast.success(intent.removed);
      }
    } catch (error) {
      // The global toast said why (an expired proof, a factor already gone); the list is read again.
      setDialog(undefined);
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  async function begin(intent: Intent) {
    setNote(undefined);
    if (intent.kind === 'passkey') preloadPasskeyLibrary();
    if (me.hasPassword) setDialog({ kind: 'verify', intent });
    else await carryOut(intent, undefined);
  }

  async function askToRemove(verification: UserMfaVerification) {
    const texts =
      verification.type === 'WebAuthn'
        ? {
            title: t('mfa.remove_passkey_title'),
            content: t('mfa.remove_passkey_content', { name: passkeyName(verification) }),
            removed: t('mfa.passkey_removed', { name: passkeyName(verification) }),
          }
        : verification.type === 'Totp'
          ? {
              title: t('mfa.remove_totp_title'),
              content: t('mfa.remove_totp_content'),
              removed: t('mfa.totp_removed'),
            }
          : {
              title: t('mfa.remove_backup_codes_title'),
              content: t('mfa.remove_backup_codes_content'),
              removed: t('mfa.backup_codes_removed'),
            };
    const isConfirmed = await confirm({
      title: texts.title,
      content: texts.content,
      confirmText: t('mfa.remove'),
      isDanger: true,
    });
    if (isConfirmed) await begin({ kind: 'remove', verification, removed: texts.removed });
  }

  function added(created: MeMfaVerificationCreated, message: string) {
    toast.success(message);
    // Shown once: the server made them with this factor, and keeps only their hashes.
    setDialog(created.backupCodes?.length ? { kind: 'backup-codes', codes: created.backupCodes } : undefined);
  }

  function details(row: UserMfaVerification): string {
    return [
      row.backedUp === undefined ? undefined : row.backedUp ? t('mfa.synced') : t('mfa.device_bound'),
      t('mfa.added_at', { time: formatTime(row.createdAt) }),
      row.lastUsedAt === null ? t('mfa.never_used') : t('mfa.last_used_at', { time: formatTime(row.lastUsedAt) }),
    ]
      .filter(Boolean)
      .join(' · ');
  }

  function removeButton(row: UserMfaVerification, label: string) {
    return (
      <Button variant="text" size="small" aria-label={label} onClick={() => askToRemove(row)}>
        {t('mfa.remove')}
      </Button>
    );
  }

  return (
    <Card
      title={t('sections.mfa')}
      description={t('mfa.description')}
      actions={
        verifications.isSuccess && (
          <Button
            size="small"
            disabled={!canUseWebAuthn}
            aria-describedby={canUseWebAuthn ? undefined : unsupportedId}
            onClick={() => begin({ kind: 'passkey' })}
          >
            {t('mfa.add_passkey')}
          </Button>
        )
      }
    >
      {verifications.isPending ? (
        <p className={own.note} role="status">
          {t('common:loading')}
        </p>
      ) : verifications.isError ? (
        <div className={styles.error} role="alert">
          <p>{t('mfa.load_failed')}</p>
          <Button onClick={() => verifications.refetch()}>{t('retry')}</Button>
        </div>
      ) : (
        <dl className={styles.rows}>
          {passkeys.length === 0 ? (
            <ProfileRow
              label={t('mfa.passkeys')}
              value={<span className={styles.muted}>{t('mfa.no_passkeys')}</span>}
            />
          ) : (
            passkeys.map((passkey) => (
              <ProfileRow
                key={passkey.id}
                label={t('mfa.passkey')}
                value={
                  <>
                    <UserText>{passkeyName(passkey)}</UserText>
                    <span className={own.detail}>{details(passkey)}</span>
                  </>
                }
                action={removeButton(passkey, t('mfa.remove_passkey_named', { name: passkeyName(passkey) }))}
              />
            ))
          )}
          <ProfileRow
            label={t('mfa.totp')}
            value={
              totp ? (
                <>
                  <span>{t('mfa.totp_on')}</span>
                  <span className={own.detail}>{details(totp)}</span>
                </>
              ) : (
                <span className={styles.muted}>{t('mfa.totp_off')}</span>
              )
            }
            action={
              totp ? (
                removeButton(totp, t('mfa.remove_totp_title'))
              ) : (
                <Button size="small" aria-label={t('mfa.totp_title')} onClick={() => begin({ kind: 'totp' })}>
                  {t('mfa.set_up')}
                </Button>
              )
            }
          />
          {backupCodes && (
            <ProfileRow
              label={t('mfa.backup_codes')}
              value={
                <>
                  <span>{t('mfa.remain_codes', { count: backupCodes.remainCodes ?? 0 })}</span>
                  <span className={own.detail}>{details(backupCodes)}</span>
                </>
              }
              action={removeButton(backupCodes, t('mfa.remove_backup_codes_title'))}
            />
          )}
        </dl>
      )}
      {verifications.isSuccess && !canUseWebAuthn && (
        <p id={unsupportedId} className={own.note}>
          {t('mfa.webauthn_unsupported')}
        </p>
      )}
      {/* Always there, so screen readers announce what is put in it. */}
      <p className={own.note} role="status">
        {note}
      </p>

      {dialog?.kind === 'verify' && (
        <VerifyPasswordDialog
          description={t('mfa.verify_description')}
          onVerified={(verificationRecordId) => carryOut(dialog.intent, verificationRecordId)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'passkey-name' && (
        <PasskeyNameModal
          ticket={dialog.ticket}
          response={dialog.response}
          defaultName={dialog.defaultName}
          onAdded={(created, name) => added(created, t('mfa.passkey_added', { name }))}
          onClose={close}
        />
      )}
      {dialog?.kind === 'totp' && (
        <TotpSetupModal
          setup={dialog.setup}
          onAdded={(created) => added(created, t('mfa.totp_added'))}
          onClose={close}
        />
      )}
      {dialog?.kind === 'backup-codes' && (
        <BackupCodesModal account={me.username ?? me.primaryEmail ?? me.id} codes={dialog.codes} onDone={close} />
      )}
    </Card>
  );
}
