import { type MeEmailVerify, meEmailVerifySchema } from '@gatehouse/schemas';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useChangeEmail, useSendLinkEmailCode } from '../../../api/me-linked-accounts.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toLinkEmail, toProfile } from '../links.ts';
import { VerifyPasswordDialog } from '../password/VerifyPasswordModal.tsx';
import { parseProfileRouteState } from '../route-state.ts';
import own from './LinkedAccounts.module.css';
import { linkedAccountsOffered } from './offered.ts';

/** A new code may be asked for this long after the last one (the sign-in pages wait as long). */
export const RESEND_AFTER_MS = 60_000;

/** The code's refusals the field shows, with the server's (translated) message. */
const codeRefusals = {
  'verification_code.code_mismatch': 'code',
  'verification_code.exceed_max_try': 'code',
} as const;

/** Whole seconds until `until`, ticking once a second; 0 once it has passed. */
function useSecondsUntil(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Route 'profile/verification-code' (spec §2.1, cloud only): the code emailed to the new address sets it as the
 * account's email. Reached from link-email with that address (and the proof of the password); without an address it
 * goes back there.
 */
export function VerificationCodeModal() {
  const { state } = useLocation();
  const { email, verificationRecordId } = parseProfileRouteState(state);
  if (!linkedAccountsOffered) return <Navigate to={toProfile()} replace />;
  if (!email) return <Navigate to={toLinkEmail()} replace />;
  return <VerificationCodeForm email={email} proof={verificationRecordId} />;
}

function VerificationCodeForm({ email, proof }: { email: string; proof: string | undefined }) {
  const { t } = useTranslation('profile');
  const navigate = useNavigate();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const { mutateAsync: changeEmail } = useChangeEmail();
  const { mutateAsync: sendCode } = useSendLinkEmailCode();
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_AFTER_MS);
  const secondsLeft = useSecondsUntil(resendAt);
  /** The proof to send; renewed when the server found it expired (10 minutes), the typed code kept meanwhile. */
  const record = useRef(proof);
  const [pendingCode, setPendingCode] = useState<string>();
  const { control, handleSubmit, formState, setError } = useForm<MeEmailVerify>({
    // The shared schema's message is English (for API callers): the field says it in the interface language.
    resolver: schemaResolver(meEmailVerifySchema, () => t('linked_accounts.code_invalid')),
    defaultValues: { code: '' },
  });

  async function submitCode(code: string) {
    try {
      await changeEmail({ email, code, verificationRecordId: record.current });
    } catch (error) {
      if (applyServerErrors({ setError }, error, { codes: codeRefusals })) return;
      if (error instanceof ApiError && error.code === 'verification_record.invalid') {
        // The code is not spent by this refusal: once the password is proven again, the same code goes.
        toast.error(t('password.verification_expired'));
        setPendingCode(code);
        return;
      }
      throw error;
    }
    toast.success(t('linked_accounts.email_saved', { email }));
    navigate(toProfile(), { replace: true });
  }

  const onSubmit = handleSubmit(submitWith(({ code }) => submitCode(code)));

  async function resend() {
    try {
      await sendCode(email);
      setResendAt(Date.now() + RESEND_AFTER_MS);
      toast.success(t('linked_accounts.code_resent'));
    } catch (error) {
      // The global toast said why (too many codes).
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  if (pendingCode !== undefined) {
    return (
      <VerifyPasswordDialog
        description={t('linked_accounts.verify_description')}
        onVerified={async (verificationRecordId) => {
          record.current = verificationRecordId;
          const code = pendingCode;
          setPendingCode(undefined);
          await submitWith(() => submitCode(code))();
        }}
        onClose={() => setPendingCode(undefined)}
      />
    );
  }

  return (
    <FormModal
      size="small"
      title={t('linked_accounts.code_title')}
      description={t('linked_accounts.code_description')}
      submitText={t('linked_accounts.verify')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={() => navigate(toProfile())}
    >
      <p data-testid="code-sent-to">
        {t('linked_accounts.code_sent_to')} <EmailText>{email}</EmailText>
      </p>
      <FormTextInput
        name="code"
        control={control}
        label={t('linked_accounts.code_label')}
        isRequired
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        data-autofocus
      />
      <div className={own.codeActions}>
        <Button size="small" variant="text" disabled={secondsLeft > 0} onClick={resend}>
          {secondsLeft > 0
            ? t('linked_accounts.resend_code_in', { seconds: secondsLeft })
            : t('linked_accounts.resend_code')}
        </Button>
      </div>
    </FormModal>
  );
}
