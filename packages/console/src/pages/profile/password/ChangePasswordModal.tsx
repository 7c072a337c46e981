import { checkPassword, defaultPasswordPolicy, type Me, passwordChangeSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate, useOutletContext } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../api/client.ts';
import { useChangePassword } from '../../../api/me-account.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { type IssueWording, schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import {
  addPasswordRejected,
  passwordRejectedOn,
  passwordRejectionMessages,
  passwordRejectionsOf,
} from '../../../components/password/password-rejections.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import type { TFunction } from '../../../i18n/runtime.ts';
import { toProfile, toVerifyPassword } from '../links.ts';
import type { ProfileOutletContext } from '../ProfilePage.tsx';
import { parseProfileRouteState } from '../route-state.ts';

/**
 * The password of PATCH me/password and the shared password policy (spec §5), checked here before the server checks
 * them again. The confirmation is the form's own (the API takes one password): its issue names the rule, `mismatch`.
 */
function newPasswordSchema(me: Me) {
  return passwordChangeSchema
    .pick({ password: true })
    .extend({ confirm: z.string() })
    .superRefine(({ password, confirm }, context) => {
      const rejections = checkPassword(password, defaultPasswordPolicy, me);
      if (rejections.length > 0) addPasswordRejected(context, rejections);
      if (confirm !== password) context.addIssue({ code: 'custom', path: ['confirm'], message: 'mismatch' });
    });
}

/**
 * The form's words: a refused password is explained by the policy's sentences, an empty one too (the API's own
 * `too_small`, said as the policy's minimum length), so the user reads what to change rather than 'required'.
 */
function newPasswordWording(me: Me, t: TFunction<'profile'>, kitT: TFunction<'components'>): IssueWording {
  return (issue) => {
    if (issue.path[0] === 'confirm') return t('password.mismatch');
    const rejections =
      issue.code === 'custom'
        ? passwordRejectionsOf(issue)
        : checkPassword(typeof issue.input === 'string' ? issue.input : '', defaultPasswordPolicy, me);
    return passwordRejectionMessages(rejections, kitT).join(' ') || undefined;
  };
}

/** Route 'profile/change-password': reached from verify-password, or directly while the account has no password. */
export function ChangePasswordModal() {
  const { me } = useOutletContext<ProfileOutletContext>();
  const { state } = useLocation();
  const { email, action, verificationRecordId } = parseProfileRouteState(state);
  // Without proof of the current password the server would refuse; ask for it first.
  if (me.hasPassword && !verificationRecordId) {
    return <Navigate to={toVerifyPassword()} replace state={{ email, action }} />;
  }
  return <ChangePasswordForm me={me} verificationRecordId={verificationRecordId} flow={{ email, action }} />;
}

type FormProps = { me: Me; verificationRecordId: string | undefined; flow: { email?: string; action?: string } };

function ChangePasswordForm({ me, verificationRecordId, flow }: FormProps) {
  const { t } = useTranslation('profile');
  // The policy's sentences are the kit's, shared with every form that sets a password.
  const { t: kitT } = useTranslation('components');
  const navigate = useNavigate();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const { mutateAsync } = useChangePassword();
  const resolver = useMemo(() => schemaResolver(newPasswordSchema(me), newPasswordWording(me, t, kitT)), [me, t, kitT]);
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { password: '', confirm: '' },
  });
  const close = () => navigate(toProfile());

  const onSubmit = handleSubmit(
    submitWith(async ({ password }) => {
      try {
        await mutateAsync({ password, verificationRecordId });
        toast.success(t('password.changed'));
        navigate(toProfile(), { replace: true });
      } catch (error) {
        const rejected = passwordRejectedOn('password', (codes) => passwordRejectionMessages(codes, kitT).join(' '));
        if (applyServerErrors({ setError }, error, { codes: { 'password.rejected': rejected } })) return;
        if (error instanceof ApiError && error.code === 'verification_record.invalid') {
          // Verifications last 10 minutes; an old one sends the user back to prove the password again.
          toast.error(t('password.verification_expired'));
          navigate(toVerifyPassword(), { replace: true, state: flow });
          return;
        }
        throw error;
      }
    }),
  );

  return (
    <FormModal
      size="small"
      title={me.hasPassword ? t('password.change_title') : t('password.set_title')}
      description={t('password.change_description')}
      submitText={t('save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormTextInput
        name="password"
        control={control}
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        isRequired
        data-autofocus
      />
      <FormTextInput
        name="confirm"
        control={control}
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        isRequired
      />
    </FormModal>
  );
}
