import type { Me, MeMfaVerificationCreated, MeTotpSecret, UserMfaVerification } from '@gatehouse/schemas';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useCreateTotpSecret, useRemoveMfaVerification, useStartPasskeyRegistration } from '../../../api/me-account.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { defaultPasskeyName } from './passkey-name.ts';
import { createPasskey, passkeyRefusal, preloadPasskeyLibrary } from './webauthn.ts';

/** What the user set out to do; proof of the password comes first when the account has one. */
export type Intent =
  | { kind: 'passkey' }
  | { kind: 'totp' }
  | { kind: 'remove'; verification: UserMfaVerification; removed: string };

/** The one dialog open over the section, if any. */
export type Dialog =
  | { kind: 'verify'; intent: Intent }
  | { kind: 'passkey-name'; ticket: string; response: RegistrationResponseJSON; defaultName: string }
  | { kind: 'totp'; setup: MeTotpSecret }
  | { kind: 'backup-codes'; codes: string[] };

/** A passkey's name as the section shows it: its own, else 'Passkey'. */
export function usePasskeyName(): (passkey: UserMfaVerification) => string {
  const { t } = useTranslation('profile');
  return (passkey) => passkey.name ?? t('mfa.passkey');
}

/** The confirmation's words for removing a factor, and the toast's once it is gone. */
function useRemovalTexts() {
  const { t } = useTranslation('profile');
  const passkeyName = usePasskeyName();
  return (verification: UserMfaVerification) => {
    if (verification.type === 'WebAuthn') {
      return {
        title: t('mfa.remove_passkey_title'),
        content: t('mfa.remove_passkey_content', { name: passkeyName(verification) }),
        removed: t('mfa.passkey_removed', { name: passkeyName(verification) }),
      };
    }
    if (verification.type === 'Totp') {
      return {
        title: t('mfa.remove_totp_title'),
        content: t('mfa.remove_totp_content'),
        removed: t('mfa.totp_removed'),
      };
    }
    return {
      title: t('mfa.remove_backup_codes_title'),
      content: t('mfa.remove_backup_codes_content'),
      removed: t('mfa.backup_codes_removed'),
    };
  };
}

/**
 * The security section's actions: adding a passkey or an authenticator app and removing a factor, each after proof of
 * the password when the account has one (the same step as the password change; the server checks that proof), and the
 * dialog they open. `note` is what became of the browser's passkey prompt when it made none.
 */
export function useMfaActions(me: Me) {
  const { t } = useTranslation('profile');
  const toast = useToast();
  const confirm = useConfirm();
  const removalTexts = useRemovalTexts();
  const { mutateAsync: startPasskeyRegistration } = useStartPasskeyRegistration();
  const { mutateAsync: createTotpSecret } = useCreateTotpSecret();
  const { mutateAsync: removeVerification } = useRemoveMfaVerification();
  const [dialog, setDialog] = useState<Dialog>();
  const [note, setNote] = useState<string>();

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
    const texts = removalTexts(verification);
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

  return { dialog, close: () => setDialog(undefined), note, begin, carryOut, askToRemove, added };
}
