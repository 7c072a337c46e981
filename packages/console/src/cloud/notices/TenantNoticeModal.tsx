import { useEffect, useState } from 'react';
import { edition } from '../../app/edition.ts';
import { Modal } from '../../components/Modal/Modal.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { planLabel } from '../checkout/plan-name.ts';
import styles from '../quota/Quota.module.css';
import { UpgradeAction } from '../quota/UpgradeAction.tsx';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { amountDueInDollars, claimNotice, type TenantNoticeKind, tenantNoticeModal } from './tenant-status.ts';

/**
 * Spec §4 quota and overdue modals: the current tenant's MAU, token or payment-overdue notice, once per page view
 * (per tenant and kind), closed by Esc or the close button. Tenant managers get the subscription tab.
 */
export function TenantNoticeModal() {
  const { t, i18n } = useTranslation(['quota', 'tenants']);
  const { currentTenant } = useTenants();
  const kind = tenantNoticeModal(currentTenant, edition);
  const tenantId = currentTenant?.id;
  const [shown, setShown] = useState<{ tenantId: string; kind: TenantNoticeKind }>();

  useEffect(() => {
    if (kind && tenantId && claimNotice(tenantId, kind)) setShown({ tenantId, kind });
  }, [kind, tenantId]);

  // A switch to another tenant closes the previous tenant's notice.
  if (!shown || !currentTenant || shown.tenantId !== currentTenant.id) return null;
  const close = () => setShown(undefined);
  const plan = t(`tenants:plan.${planLabel(currentTenant.planId)}`);
  const isOverdue = shown.kind === 'overdue';
  const description = isOverdue
    ? t('notices.overdue_description', {
        tenant: currentTenant.name,
        amount: amountDueInDollars(currentTenant, i18n.language),
      })
    : t(shown.kind === 'mau_exceeded' ? 'notices.mau_description' : 'notices.token_description', { plan });
  return (
    <Modal
      isOpen
      onClose={close}
      size="small"
      title={t(`notices.${shown.kind}_title`)}
      footer={
        <UpgradeAction
          tenantId={currentTenant.id}
          label={t(isOverdue ? 'notices.manage_billing' : 'notices.upgrade')}
          contactText={t(isOverdue ? 'notices.contact_admin_billing' : 'notices.contact_admin')}
          onNavigate={close}
        />
      }
    >
      <div className={styles.body} data-testid={`tenant-notice-${shown.kind}`}>
        <p>{description}</p>
      </div>
    </Modal>
  );
}
