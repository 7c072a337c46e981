import type { Tenant } from '@gatehouse/schemas';
import { Suspense } from 'react';
import { Tag, type TagStatus } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { type TenantStatusTag as Status, tenantStatusTag } from '../notices/tenant-status.ts';

const colour: Record<Exclude<Status, 'none'>, TagStatus> = {
  suspended: 'error',
  overdue: 'error',
  mau_exceeded: 'warning',
  token_exceeded: 'warning',
};

function StatusLabel({ status, id }: { status: Exclude<Status, 'none'>; id: string | undefined }) {
  const { t } = useTranslation(['quota', 'tenants']);
  const label = status === 'suspended' ? t('tenants:status.suspended') : t(`quota:status.${status}`);
  return (
    <span id={id} data-testid="tenant-status" data-tenant-status={status}>
      <Tag status={colour[status]}>{label}</Tag>
    </span>
  );
}

/** Spec §4/§2.10: a tenant's status tag (first match of suspended, overdue, MAU or token exceeded), or nothing. */
export function TenantStatusTag({ tenant, id }: { tenant: Tenant; id?: string }) {
  const status = tenantStatusTag(tenant);
  if (status === 'none') return null;
  // Its strings load on their own, so the switcher never waits for them.
  return (
    <Suspense fallback={null}>
      <StatusLabel status={status} id={id} />
    </Suspense>
  );
}
