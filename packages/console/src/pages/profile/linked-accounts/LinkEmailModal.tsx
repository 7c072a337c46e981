import { type Me, type MeEmailLinkCode, meEmailLinkCodeSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate, useOutletContext } from 'react-router';
import { useSendLinkEmailCode } from '../../../api/me-linked-accounts.ts';
import { EmailText } from '../../../components/EmailText.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { toLinkEmail, toProfile, toVerificationCode } from '../links.ts';
import type { ProfileOutletContext } from '../ProfilePage.tsx';
import { VerifyPasswordDialog } from '../password/VerifyPasswordModal.tsx';
import { parseProfileRouteState } from '../route-state.ts';
import { linkedAccountsOffered } from './offered.ts';

/**
 * Route 'profile/link-email' (spec §2.12, cloud only): reached with the current email and the action changeEmail. An
 * account with a password proves it first (the server asks for that proof with the change); then the new address,
 * to which the server emails a code, and on to 'verification-code' with it.
 */
export function LinkEmailModal() {
  const { t } = useTranslation('profile');
  const { me } = useOutletContext<ProfileOutletContext>();
  const navigate = useNavigate();
  const { state } = useLocation();
  const { email, verificationRecordId } = parseProfileRouteState(state);
  // Linking an email is the cloud edition's (spec §6); the OSS server has no such route.
  if (!linkedAccountsOffered) return <Navigate to={toProfile()} replace />;
  if (me.hasPassword && !verificationRecordId) {
    return (
      <VerifyPasswordDialog
        description={t('linked_accounts.verify_description')}
        onVerified={(record) =>
          navigate(toLinkEmail(), {
            replace: true,
            state: { email, action: 'changeEmail', verificationRecordId: record },
          })
        }
        onClose={() => navigate(toProfile())}
      />
    );
  }
  return <LinkEmailForm me={me} currentEmail={email ?? me.primaryEmail ?? undefined} proof={verificationRecordId} />;
}

type FormProps = { me: Me; currentEmail: string | undefined; proof: string | undefined };

function LinkEmailForm({ me, currentEmail, proof }: FormProps) {
  const { t } = useTranslation('profile');
  const navigate = useNavigate();
  const submitWith = useSubmitHandler();
  const { mutateAsync: sendCode } = useSendLinkEmailCode();
  const resolver = useMemo(() => schemaResolver(meEmailLinkCodeSchema, () => t('linked_accounts.email_invalid')), [t]);
  const { control, handleSubmit, formState, setError } = useForm<MeEmailLinkCode>({
    resolver,
    mode: 'onBlur',
    defaultValues: { email: '' },
  });
  const title = me.primaryEmail ? t('linked_accounts.change_email_title') : t('linked_accounts.link_email_title');

  const onSubmit = handleSubmit(
    submitWith(async ({ email }) => {
      const address = email.trim();
      try {
        await sendCode(address);
      } catch (error) {
        const refusals = { 'user.email_already_in_use': 'email', 'user.email_blocked': 'email' } as const;
        if (applyServerErrors({ setError }, error, { codes: refusals, paths: (path) => path })) return;
        throw error;
      }
      navigate(toVerificationCode(), {
        state: { email: address, action: 'changeEmail', ...(proof && { verificationRecordId: proof }) },
      });
    }),
  );

  return (
    <FormModal
      size="small"
      title={title}
      description={t('linked_accounts.link_email_description')}
      submitText={t('linked_accounts.send_code')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={() => navigate(toProfile())}
    >
      {currentEmail && (
        <p data-testid="current-email">
          {t('linked_accounts.current_email')} <EmailText>{currentEmail}</EmailText>
        </p>
      )}
      <FormTextInput
        name="email"
        control={control}
        label={t('linked_accounts.new_email')}
        type="email"
        autoComplete="email"
        spellCheck={false}
        isRequired
        data-autofocus
      />
    </FormModal>
  );
}
