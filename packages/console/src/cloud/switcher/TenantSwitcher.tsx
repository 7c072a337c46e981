import type { Tenant } from '@gatehouse/schemas';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useMyInvitations } from '../../api/tenants.ts';
import { Button } from '../../components/Button/Button.tsx';
import { CheckIcon, ChevronEndIcon, PlusIcon } from '../../components/icons.tsx';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { planLabel } from '../checkout/plan-name.ts';
import { CreateTenantModal } from '../create-tenant/CreateTenantModal.tsx';
import { useJoinInvitation } from '../layout/SignedInIndex.tsx';
import { tenantStatusTag } from '../notices/tenant-status.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { TenantStatusTag } from './TenantStatusTag.tsx';
import styles from './TenantSwitcher.module.css';

function EnvironmentTag({ tag }: { tag: Tenant['tag'] }) {
  const { t } = useTranslation('tenants');
  return <Tag status={tag === 'production' ? 'success' : 'info'}>{t(`tag.${tag}`)}</Tag>;
}

/**
 * Spec §2.10: the current tenant's card opens a panel listing the tenants, the pending invitations and a create
 * button. A disclosure (button + panel of links and buttons), not an ARIA menu: the rows hold more than one control
 * (Join) and rich text, which a menu item cannot. Esc closes and returns focus to the card.
 */
export function TenantSwitcher() {
  const { t } = useTranslation('tenants');
  const { tenants, currentTenant } = useTenants();
  const invitations = useMyInvitations();
  const join = useJoinInvitation();
  const [isOpen, setOpen] = useState(false);
  const [isCreating, setCreating] = useState(false);
  const panelId = useId();
  const statusId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const pending = invitations.data ?? [];

  useEffect(() => {
    if (!isOpen) return;
    root.current?.querySelector<HTMLElement>('[data-switcher-item]')?.focus();
    const outside = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    // Esc anywhere while open (focus is inside the panel or on the card) closes it and returns focus to the card.
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', onEscape);
    };
  }, [isOpen]);

  if (tenants.length === 0) return null;

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  return (
    <div ref={root} className={styles.switcher}>
      <button
        ref={trigger}
        type="button"
        className={styles.card}
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={t('switcher.label', { name: currentTenant?.name ?? '' })}
        // The label names the tenant only; its status tag (spec §4) is read as the description.
        aria-describedby={currentTenant && tenantStatusTag(currentTenant) !== 'none' ? statusId : undefined}
        data-testid="tenant-switcher"
        onClick={() => setOpen((open) => !open)}
      >
        <span className={styles.name}>{currentTenant?.name}</span>
        {currentTenant && (
          <span className={styles.cardTag}>
            <EnvironmentTag tag={currentTenant.tag} />
          </span>
        )}
        {currentTenant && <TenantStatusTag tenant={currentTenant} id={statusId} />}
        {pending.length > 0 && (
          <span className={styles.dot} role="img" aria-label={t('switcher.pending_invitations_dot')} />
        )}
        <ChevronEndIcon className={styles.chevron} aria-hidden="true" />
      </button>
      <div id={panelId} className={styles.panel} hidden={!isOpen}>
        <h2 className={styles.heading}>{t('switcher.tenants')}</h2>
        <ul className={styles.list}>
          {tenants.map((tenant) => {
            const isSelected = tenant.id === currentTenant?.id;
            const plan = tenant.tag === 'development' ? undefined : planLabel(tenant.planId);
            return (
              <li key={tenant.id}>
                <Link
                  to={`/${encodeURIComponent(tenant.id)}`}
                  className={styles.tenant}
                  aria-current={isSelected ? 'page' : undefined}
                  data-switcher-item
                  data-testid={`tenant-${tenant.id}`}
                  onClick={() => close(false)}
                >
                  <span className={styles.tenantMain}>
                    <span className={styles.name}>{tenant.name}</span>
                    <TenantStatusTag tenant={tenant} />
                  </span>
                  <span className={styles.meta}>
                    {t(`region.${tenant.regionName}`)}
                    <span aria-hidden="true"> · </span>
                    {t(`tag.${tenant.tag}`)}
                    {plan && (
                      <>
                        <span aria-hidden="true"> · </span>
                        {t(`plan.${plan}`)}
                      </>
                    )}
                  </span>
                  {isSelected && <CheckIcon className={styles.check} role="img" aria-label={t('switcher.selected')} />}
                </Link>
              </li>
            );
          })}
        </ul>
        {pending.length > 0 && (
          <>
            <h2 className={styles.heading}>{t('switcher.invitations')}</h2>
            <ul className={styles.list}>
              {pending.map((invitation) => (
                <li key={invitation.id} className={styles.invitation}>
                  <span className={styles.name}>{invitation.tenantName}</span>
                  <EnvironmentTag tag={invitation.tenantTag} />
                  <Button
                    size="small"
                    variant="primary"
                    data-switcher-item
                    aria-label={t('invitations.join_label', { name: invitation.tenantName })}
                    onClick={async () => {
                      await join(invitation).catch(() => undefined);
                      close(false);
                    }}
                  >
                    {t('switcher.join')}
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className={styles.footer}>
          <Button
            icon={<PlusIcon />}
            data-switcher-item
            onClick={() => {
              close(false);
              setCreating(true);
            }}
          >
            {t('switcher.create')}
          </Button>
        </div>
      </div>
      <CreateTenantModal isOpen={isCreating} onClose={() => setCreating(false)} />
    </div>
  );
}
