import { DEFAULT_TENANT_REGION, type Tenant, type TenantRegion, type TenantTag } from '@gatehouse/schemas';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { CardRadio } from '../../components/form/CardRadio.tsx';
import { FormField } from '../../components/form/FormField.tsx';
import { FormModal } from '../../components/Modal/FormModal.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { loadNamespace } from '../../i18n/index.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { PlanPickerModal } from './PlanPickerModal.tsx';
import { TenantFields, tenantNameError } from './TenantFields.tsx';
import { useCreateAndAddTenant } from './use-create-tenant.ts';

/**
 * Spec §2.9: name, region and purpose. Development creates the tenant directly; it goes first in the list, a toast
 * confirms and the console moves into it. Production opens the plan picker instead (closing it comes back here).
 */
export function CreateTenantModal({
  isOpen,
  onClose,
  initialTag = 'development',
}: {
  isOpen: boolean;
  onClose: () => void;
  /** The purpose chosen when the modal opens (spec §9 default Development; the production banner asks for Production). */
  initialTag?: TenantTag;
}) {
  const { t } = useTranslation('tenants');
  const navigate = useNavigate();
  const toast = useToast();
  const { create, isPending } = useCreateAndAddTenant();
  const [name, setName] = useState('');
  const [region, setRegion] = useState<TenantRegion>(DEFAULT_TENANT_REGION);
  const [tag, setTag] = useState<TenantTag>(initialTag);
  const [isSubmitted, setSubmitted] = useState(false);
  const [isPickingPlan, setPickingPlan] = useState(false);
  const nameError = isSubmitted ? tenantNameError(name, true) : undefined;

  const close = () => {
    setName('');
    setRegion(DEFAULT_TENANT_REGION);
    setTag(initialTag);
    setSubmitted(false);
    setPickingPlan(false);
    onClose();
  };

  const moveInto = (tenant: Tenant) => {
    toast.success(t('create.created', { name: tenant.name }));
    close();
    navigate(`/${encodeURIComponent(tenant.id)}`);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (tenantNameError(name, true)) return;
    if (tag === 'production') {
      await loadNamespace('plans');
      setPickingPlan(true);
      return;
    }
    moveInto(await create({ name: name.trim(), regionName: region, tag }));
  };

  if (!isOpen) return null;
  if (isPickingPlan) {
    return (
      <PlanPickerModal
        tenant={{ name: name.trim(), regionName: region }}
        onClose={() => setPickingPlan(false)}
        onCreated={moveInto}
      />
    );
  }

  return (
    <FormModal
      title={t('create.title')}
      submitText={t('create.submit')}
      isSubmitting={isPending}
      onSubmit={(event) => {
        // Errors are toasted by the query client; the modal stays open to retry.
        submit(event).catch(() => undefined);
      }}
      onClose={close}
    >
      <TenantFields
        name={name}
        onNameChange={setName}
        nameError={nameError}
        isNameRequired
        region={region}
        onRegionChange={setRegion}
      />
      <FormField name="tag" label={t('create.purpose')} isGroup>
        <CardRadio
          options={[
            {
              value: 'development',
              title: t('create.development_title'),
              description: t('create.development_description'),
            },
            {
              value: 'production',
              title: t('create.production_title'),
              description: t('create.production_description'),
            },
          ]}
          value={tag}
          onChange={setTag}
        />
      </FormField>
    </FormModal>
  );
}
