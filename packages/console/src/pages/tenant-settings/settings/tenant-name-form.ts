import { TENANT_NAME_MAX_LENGTH, type TenantUpdate, tenantUpdateSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { useTranslation } from '../../../i18n/react.tsx';

/** The settings tab's name form: the shared PATCH schema, its messages in the interface language. */
export function useTenantNameResolver() {
  const { t } = useTranslation('tenant_settings');
  return useMemo(
    () =>
      schemaResolver(tenantUpdateSchema, (issue) =>
        issue.code === 'too_big'
          ? t('settings.name_too_long', { max: TENANT_NAME_MAX_LENGTH })
          : t('settings.name_required'),
      ),
    [t],
  );
}

export type TenantNameForm = TenantUpdate;

/** Spec §2.2 settings: deleting asks for the tenant's name typed exactly (surrounding spaces aside). */
export function isDeleteConfirmed(typed: string, tenantName: string): boolean {
  return typed.trim() === tenantName.trim() && typed.trim() !== '';
}
