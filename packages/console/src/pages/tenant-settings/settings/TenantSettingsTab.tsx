import type { Tenant } from '@gatehouse/schemas';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useMe } from '../../../api/me.ts';
import { useDeleteTenant, useLeaveTenant, useUpdateTenant } from '../../../api/tenants.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { TextInput } from '../../../components/form/TextInput.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../TenantSettings.module.css';
import { isDeleteConfirmed, type TenantNameForm, useTenantNameResolver } from './tenant-name-form.ts';

/**
 * Spec §2.2 tenant-settings/settings (tenant managers): the id to copy, the name, the environment tag and region
 * (fixed at creation), and the danger zone: leave the tenant, or delete it after typing its name.
 */
export function TenantSettingsTab() {
  const { currentTenant } = useTenants();
  if (!currentTenant) return null;
  return <TenantSettingsContent tenant={currentTenant} />;
}

function TenantSettingsContent({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const { updateTenant } = useTenants();
  const update = useUpdateTenant(tenant.id);
  const { control, handleSubmit, reset, formState } = useForm<TenantNameForm>({
    resolver: useTenantNameResolver(),
    mode: 'onBlur',
    defaultValues: { name: tenant.name },
  });

  const onSubmit = handleSubmit(
    submitWith(async ({ name }) => {
      if (name === tenant.name) {
        reset({ name });
        return;
      }
      const saved = await update.mutateAsync({ name });
      updateTenant(tenant.id, saved);
      reset({ name: saved.name });
      toast.success(t('settings.saved'));
    }),
  );

  return (
    <div className={styles.stack}>
      <DetailsForm
        isDirty={formState.isDirty}
        isSubmitting={formState.isSubmitting}
        onDiscard={() => reset()}
        onSubmit={onSubmit}
      >
        <Card title={t('settings.general')} description={t('settings.general_description')}>
          <div className={styles.form}>
            <FormField name="tenantId" label={t('settings.tenant_id')} isGroup>
              <CopyableValue value={tenant.id} label={t('settings.copy_id')} />
            </FormField>
            <FormTextInput name="name" control={control} label={t('settings.name')} isRequired />
            <FormField name="environment" label={t('settings.environment')} isGroup>
              <span className={styles.row} data-testid="tenant-environment">
                <Tag status={tenant.tag === 'production' ? 'success' : 'info'}>{t(`environments.${tenant.tag}`)}</Tag>
                <span className={styles.muted}>{t(`regions.${tenant.regionName}`)}</span>
              </span>
            </FormField>
          </div>
        </Card>
      </DetailsForm>
      <DangerZone tenant={tenant} />
    </div>
  );
}

function DangerZone({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const me = useMe();
  const { removeTenant } = useTenants();
  const leave = useLeaveTenant(tenant.id);
  const [isDeleting, setDeleting] = useState(false);

  async function onLeave() {
    const userId = me.data?.id;
    if (!userId) return;
    const isConfirmed = await confirm({
      content: t('settings.leave_content', { name: tenant.name }),
      confirmText: t('settings.leave'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await leave.mutateAsync(userId);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    removeTenant(tenant.id);
    toast.success(t('settings.left', { name: tenant.name }));
    await navigate('/', { replace: true });
  }

  return (
    <Card title={t('settings.danger_zone')}>
      <div className={styles.stack}>
        <div className={styles.dangerRow}>
          <div className={styles.dangerText}>
            <h3 className={styles.dangerTitle}>{t('settings.leave_title')}</h3>
            <p className={styles.muted}>{t('settings.leave_description')}</p>
          </div>
          <Button variant="dangerOutline" onClick={onLeave} disabled={!me.data}>
            {t('settings.leave')}
          </Button>
        </div>
        <div className={styles.dangerRow}>
          <div className={styles.dangerText}>
            <h3 className={styles.dangerTitle}>{t('settings.delete_title')}</h3>
            <p className={styles.muted}>{t('settings.delete_description')}</p>
          </div>
          <Button variant="dangerOutline" onClick={() => setDeleting(true)}>
            {t('settings.delete')}
          </Button>
        </div>
      </div>
      {isDeleting && <DeleteTenantModal tenant={tenant} onClose={() => setDeleting(false)} />}
    </Card>
  );
}

/** The typed confirmation: Delete stays disabled until the tenant's name is typed. */
function DeleteTenantModal({ tenant, onClose }: { tenant: Tenant; onClose: () => void }) {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const navigate = useNavigate();
  const { removeTenant } = useTenants();
  const remove = useDeleteTenant(tenant.id);
  const [typed, setTyped] = useState('');
  const canDelete = isDeleteConfirmed(typed, tenant.name);

  async function onDelete() {
    if (!canDelete) return;
    try {
      await remove.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    removeTenant(tenant.id);
    toast.success(t('settings.deleted', { name: tenant.name }));
    onClose();
    await navigate('/', { replace: true });
  }

  return (
    <FormModal
      role="alertdialog"
      size="small"
      title={t('settings.delete_modal_title')}
      description={t('settings.delete_content', { name: tenant.name })}
      submitText={t('settings.delete')}
      isDanger
      isSubmitDisabled={!canDelete}
      isSubmitting={remove.isPending}
      onSubmit={(event) => {
        event.preventDefault();
        void onDelete();
      }}
      onClose={onClose}
    >
      <FormField name="confirmName" label={t('settings.delete_type_name', { name: tenant.name })}>
        <TextInput value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
      </FormField>
    </FormModal>
  );
}
