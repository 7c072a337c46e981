import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useMe } from '../../api/me.ts';
import { acceptInvitation, cloudKeys, fetchInvitation, fetchTenants } from '../../api/tenants.ts';
import { startSignIn } from '../../auth/session.ts';
import { CloudPage, cloudPageStyles as styles } from '../../cloud/layout/CloudPage.tsx';
import { useTenants } from '../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { ConfirmEmailStep } from './ConfirmEmailStep.tsx';

const mismatchCode = 'organization_invitation.email_mismatch';
/** Issue 39 item 6: the invitation is to this account's address, not proven yet (`data.email` names it). */
const notVerifiedCode = 'organization_invitation.email_not_verified';

/** The address a `…email_not_verified` refusal names, if it names one. */
function refusedEmail(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('email' in data)) return undefined;
  return typeof data.email === 'string' && data.email ? data.email : undefined;
}

/**
 * Spec §2.7: the acceptance link. It loads the invitation, accepts it at once and moves into the tenant; an account
 * whose address the invitation names but never proved it confirms it with an emailed code first (issue 39 item 6).
 */
export function AcceptInvitationPage() {
  const { t } = useTranslation('tenants');
  const { invitationId = '' } = useParams();
  const navigate = useNavigate();
  const { resetTenants } = useTenants();
  const invitation = useQuery({
    queryKey: cloudKeys.invitation(invitationId),
    queryFn: ({ signal }) => fetchInvitation(invitationId, signal),
    retry: false,
    // This page shows its own screens for these.
    meta: { silenceErrorCodes: true },
  });
  const accepted = useRef(false);

  const data = invitation.data;
  useEffect(() => {
    if (data?.status !== 'Pending' || accepted.current) return;
    accepted.current = true;
    void (async () => {
      await acceptInvitation(data.id);
      resetTenants(await fetchTenants());
      navigate(`/${encodeURIComponent(data.tenantId)}`, { replace: true });
    })().catch(() => {
      // Shown as the invalid-status screen: the invitation could not move to Accepted.
      accepted.current = false;
    });
  }, [data, navigate, resetTenants]);

  const error = invitation.error;
  if (error instanceof ApiError && error.code === notVerifiedCode) {
    return <ConfirmEmailStep email={refusedEmail(error.data)} />;
  }
  if (error instanceof ApiError && (error.status === 403 || error.code === mismatchCode)) return <Mismatch />;
  if (error instanceof ApiError && error.status === 404) {
    return (
      <CloudPage title={t('accept.not_found_title')} subtitle={t('accept.not_found_description')}>
        <BackLink />
      </CloudPage>
    );
  }
  if (error || (data && data.status !== 'Pending')) {
    return (
      <CloudPage title={t('accept.invalid_status_title')} subtitle={t('accept.invalid_status_description')}>
        <BackLink />
      </CloudPage>
    );
  }
  return (
    <CloudPage title={t('accept.accepting')}>
      <Loading />
    </CloudPage>
  );
}

function BackLink() {
  const { t } = useTranslation('tenants');
  return <Link to="/">{t('accept.back')}</Link>;
}

/** Someone else's invitation: show who is signed in, and offer to sign in as another account, coming back here. */
function Mismatch() {
  const { t } = useTranslation('tenants');
  const me = useMe();
  const account = me.data ? me.data.primaryEmail || me.data.username || me.data.id : undefined;
  return (
    <CloudPage title={t('accept.mismatch_title')} subtitle={t('accept.mismatch_description')}>
      {account && (
        <p className={styles.account} data-testid="current-account">
          {account}
        </p>
      )}
      <div className={styles.actions}>
        <Button
          variant="primary"
          onClick={() => {
            const { pathname, search, hash } = window.location;
            // startSignIn drops the local session first; the sign-up screen opens for an acceptance path (spec §2.4).
            return startSignIn({ pathname, search, hash }, { signUp: true });
          }}
        >
          {t('accept.switch_account')}
        </Button>
      </div>
    </CloudPage>
  );
}
