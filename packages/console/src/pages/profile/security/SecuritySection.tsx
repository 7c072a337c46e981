import type { Me } from '@gatehouse/schemas';
import { useId, useState } from 'react';
import { useMyMfaVerifications } from '../../../api/me-account.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Profile.module.css';
import { VerifyPasswordDialog } from '../password/VerifyPasswordModal.tsx';
import type { ProfileSectionProps } from '../section-props.ts';
import { BackupCodesModal } from './BackupCodesModal.tsx';
import { MfaFactorRows } from './MfaFactorRows.tsx';
import { PasskeyNameModal } from './PasskeyNameModal.tsx';
import own from './Security.module.css';
import { TotpSetupModal } from './TotpSetupModal.tsx';
import { useMfaActions } from './use-mfa-actions.ts';
import { browserSupportsWebAuthn } from './webauthn.ts';

/**
 * The account's second factors: its passkeys (any number), its authenticator app (one) and the backup codes the
 * server made with the first of them. Adding or removing one asks for the current password first, when there is one
 * (the same step as the password change); the server checks that proof.
 */
export function SecuritySection({ me }: ProfileSectionProps) {
  const { t } = useTranslation(['profile', 'common']);
  const verifications = useMyMfaVerifications();
  const actions = useMfaActions(me);
  const [canUseWebAuthn] = useState(browserSupportsWebAuthn);
  const unsupportedId = useId();

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
            onClick={() => actions.begin({ kind: 'passkey' })}
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
        <MfaFactorRows
          verifications={verifications.data}
          onSetUpTotp={() => actions.begin({ kind: 'totp' })}
          onRemove={(verification) => actions.askToRemove(verification)}
        />
      )}
      {verifications.isSuccess && !canUseWebAuthn && (
        <p id={unsupportedId} className={own.note}>
          {t('mfa.webauthn_unsupported')}
        </p>
      )}
      {/* Always there, so screen readers announce what is put in it. */}
      <p className={own.note} role="status">
        {actions.note}
      </p>
      <SecurityDialogs me={me} actions={actions} />
    </Card>
  );
}

/** The dialog the section's actions have open, if any. */
function SecurityDialogs({ me, actions }: { me: Me; actions: ReturnType<typeof useMfaActions> }) {
  const { t } = useTranslation('profile');
  const { dialog, close, carryOut, added } = actions;
  switch (dialog?.kind) {
    case 'verify':
      return (
        <VerifyPasswordDialog
          description={t('mfa.verify_description')}
          onVerified={(verificationRecordId) => carryOut(dialog.intent, verificationRecordId)}
          onClose={close}
        />
      );
    case 'passkey-name':
      return (
        <PasskeyNameModal
          ticket={dialog.ticket}
          response={dialog.response}
          defaultName={dialog.defaultName}
          onAdded={(created, name) => added(created, t('mfa.passkey_added', { name }))}
          onClose={close}
        />
      );
    case 'totp':
      return (
        <TotpSetupModal
          setup={dialog.setup}
          onAdded={(created) => added(created, t('mfa.totp_added'))}
          onClose={close}
        />
      );
    case 'backup-codes':
      return <BackupCodesModal account={me.username ?? me.primaryEmail ?? me.id} codes={dialog.codes} onDone={close} />;
    default:
      return null;
  }
}
