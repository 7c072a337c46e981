import { type MeEmailVerify, meEmailVerifySchema } from '@gatehouse/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMe, useSendEmailCode, useVerifyEmail } from '../../api/me.ts';
import { cloudKeys } from '../../api/tenants.ts';
import { CloudPage, cloudPageStyles as styles } from '../../cloud/layout/CloudPage.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { EmailText } from '../../components/EmailText.tsx';
import { FormTextInput } from '../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useTranslation } from '../../i18n/react.tsx';

/** A new code may be asked for this long after the last one (the sign-in pages wait as long). */
const RESEND_AFTER_MS = 60_000;

/** The code's refusals the field shows, with the server's (translated) message. */
const codeRefusals = {
  'verification_code.code_mismatch': 'code',
  'verification_code.exceed_max_try': 'code',
} as const;

/** Whole seconds until `until`, ticking once a second; 0 once it has passed (or when there is nothing to wait for). */
function useSecondsUntil(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Issue 39 item 6: the invitation is to this account's address, which was never proven. A code emailed to it proves
 * it; the invitation is then read again, and the page accepts it as usual.
 */
export function ConfirmEmailStep({ email }: { email: string | undefined }) {
  const { t } = useTranslation('tenants');
  const me = useMe();
  const client = useQueryClient();
  const sendCode = useSendEmailCode();
  const { mutateAsync: verify } = useVerifyEmail();
  const submitWith = useSubmitHandler();
  const [resendAt, setResendAt] = useState<number>();
  const secondsLeft = useSecondsUntil(resendAt);
  const address = email ?? me.data?.primaryEmail ?? undefined;
  const isSent = resendAt !== undefined;

  const { control, handleSubmit, setError, setFocus, formState } = useForm<MeEmailVerify>({
    // The shared schema's message is English (for API callers): the field says it in the interface language.
    resolver: schemaResolver(meEmailVerifySchema, () => t('accept.code_invalid')),
    defaultValues: { code: '' },
  });

  useEffect(() => {
    if (isSent) setFocus('code');
  }, [isSent, setFocus]);

  const send = () =>
    sendCode.mutateAsync().then(
      () => setResendAt(Date.now() + RESEND_AFTER_MS),
      // The global toast showed why (too many codes, no address); the button is there for another try.
      () => undefined,
    );

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        await verify(values);
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: codeRefusals })) throw error;
        return;
      }
      // The address is proven: the invitation now opens and the page accepts it. The account's list of invitations
      // (empty while the address was unproven) is read again too: its key is the prefix of the invitation's.
      await client.invalidateQueries({ queryKey: cloudKeys.myInvitations });
    }),
  );

  return (
    <CloudPage title={t('accept.confirm_title')} subtitle={t('accept.confirm_description')}>
      {address && (
        <p className={styles.account} data-testid="confirm-email-address">
          <EmailText>{address}</EmailText>
        </p>
      )}
      {!isSent ? (
        <div className={styles.actions}>
          <Button variant="primary" onClick={send}>
            {t('accept.send_code')}
          </Button>
        </div>
      ) : (
        <form className={styles.list} noValidate onSubmit={onSubmit}>
          <p className={styles.note} role="status">
            {t('accept.code_sent')}
          </p>
          <FormTextInput
            name="code"
            control={control}
            label={t('accept.code_label')}
            isRequired
            inputMode="numeric"
            autoComplete="one-time-code"
            spellCheck={false}
          />
          <div className={styles.actions}>
            <Button disabled={secondsLeft > 0} onClick={send}>
              {secondsLeft > 0 ? t('accept.resend_code_in', { seconds: secondsLeft }) : t('accept.resend_code')}
            </Button>
            <Button variant="primary" type="submit" isLoading={formState.isSubmitting}>
              {t('accept.verify')}
            </Button>
          </div>
        </form>
      )}
    </CloudPage>
  );
}
