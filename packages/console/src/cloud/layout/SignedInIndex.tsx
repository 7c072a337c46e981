import type { InviteeInvitation } from '@gatehouse/schemas';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useMe, useUpdateCustomData } from '../../api/me.ts';
import { fetchTenants, useAcceptInvitation, useMyInvitations } from '../../api/tenants.ts';
import { AppLoading } from '../../components/AppLoading/AppLoading.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { CreateTenantModal } from '../create-tenant/CreateTenantModal.tsx';
import { indexDecision, withOnboardingDone } from '../tenants/rules.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { CloudPage, cloudPageStyles as styles } from './CloudPage.tsx';

/** Joins an invitation's tenant: accept, reload the tenant list (the new membership), then go there. */
export function useJoinInvitation() {
  const accept = useAcceptInvitation();
  const { resetTenants } = useTenants();
  const navigate = useNavigate();
  return async (invitation: InviteeInvitation) => {
    await accept.mutateAsync(invitation.id);
    resetTenants(await fetchTenants());
    navigate(`/${encodeURIComponent(invitation.tenantId)}`);
  };
}

function InvitationList({ invitations }: { invitations: InviteeInvitation[] }) {
  const { t } = useTranslation('tenants');
  const join = useJoinInvitation();
  const me = useMe();
  const updateCustomData = useUpdateCustomData();
  const navigate = useNavigate();
  return (
    <CloudPage title={t('invitations.title')} subtitle={t('invitations.description')}>
      <ul className={styles.list}>
        {invitations.map((invitation) => (
          <li key={invitation.id} className={styles.row}>
            <span className={styles.rowName}>{invitation.tenantName}</span>
            <Tag status={invitation.tenantTag === 'production' ? 'success' : 'info'}>
              {t(`tag.${invitation.tenantTag}`)}
            </Tag>
            <Button
              variant="primary"
              size="small"
              aria-label={t('invitations.join_label', { name: invitation.tenantName })}
              onClick={() => join(invitation).catch(() => undefined)}
            >
              {t('invitations.join')}
            </Button>
          </li>
        ))}
      </ul>
      <p className={styles.separator}>{t('invitations.or')}</p>
      {/* Spec §2.4: back to onboarding, which creates the tenant. */}
      <Button
        onClick={async () => {
          await updateCustomData.mutateAsync(withOnboardingDone(me.data?.customData, false));
          navigate('/');
        }}
      >
        {t('invitations.create_new')}
      </Button>
    </CloudPage>
  );
}

function TenantLanding() {
  const { t } = useTranslation('tenants');
  const [isCreating, setCreating] = useState(false);
  return (
    <CloudPage title={t('landing.title')} subtitle={t('landing.description')}>
      <div className={styles.actions}>
        <Button variant="primary" onClick={() => setCreating(true)}>
          {t('landing.create')}
        </Button>
      </div>
      <CreateTenantModal isOpen={isCreating} onClose={() => setCreating(false)} />
    </CloudPage>
  );
}

/** Spec §2.4 signed-in index of the cloud edition ('/'). */
export function SignedInIndex() {
  const me = useMe();
  const { tenants } = useTenants();
  // Needed only when there is no tenant to go to.
  const invitations = useMyInvitations({ enabled: tenants.length === 0 });
  const decision = indexDecision({
    isUserLoading: me.isLoading,
    customData: me.data?.customData,
    tenants,
    pendingInvitations: invitations.isError ? [] : invitations.data,
  });
  switch (decision.kind) {
    case 'wait':
      return <AppLoading />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'invitations':
      return <InvitationList invitations={decision.invitations} />;
    case 'landing':
      return <TenantLanding />;
  }
}
