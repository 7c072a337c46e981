import { DEFAULT_TENANT_NAME, DEFAULT_TENANT_REGION, type TenantRegion } from '@gatehouse/schemas';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useMe, useUpdateCustomData } from '../../api/me.ts';
import { inviteToTenant } from '../../api/tenants.ts';
import { TenantFields, tenantNameError } from '../../cloud/create-tenant/TenantFields.tsx';
import { useCreateAndAddTenant } from '../../cloud/create-tenant/use-create-tenant.ts';
import { CloudPage, cloudPageStyles } from '../../cloud/layout/CloudPage.tsx';
import { needsOnboarding, withDefaultTenant, withOnboardingDone } from '../../cloud/tenants/rules.ts';
import { useTenants } from '../../cloud/tenants/TenantsProvider.tsx';
import { AppLoading } from '../../components/AppLoading/AppLoading.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { type EmailChip, EmailChipInput } from '../../components/form/EmailChipInput.tsx';
import { FormField } from '../../components/form/FormField.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { useForcedLightTheme } from './force-light-theme.ts';

/**
 * Spec §2.6 and §4 onboarding: the first tenant (development), its collaborators invited afterwards (a failure
 * does not stop the flow), then onboarding is done and the new tenant becomes the default.
 */
export function OnboardingPage() {
  const { t } = useTranslation('tenants');
  useDocumentTitle(t('onboarding.document_title'));
  useForcedLightTheme();
  const navigate = useNavigate();
  const toast = useToast();
  const me = useMe();
  const updateCustomData = useUpdateCustomData();
  const { create } = useCreateAndAddTenant();
  const { tenants } = useTenants();
  const [name, setName] = useState('');
  const [region, setRegion] = useState<TenantRegion>(DEFAULT_TENANT_REGION);
  const [chips, setChips] = useState<EmailChip[]>([]);
  const [isSubmitting, setSubmitting] = useState(false);
  // Only the length can be wrong here: an empty name falls back to 'My project'.
  const nameError = tenantNameError(name, false);

  if (me.isLoading) return <AppLoading />;
  if (!me.data) return null;
  if (!needsOnboarding(me.data.customData, tenants) && !isSubmitting) return <Navigate to="/" replace />;
  const customData = me.data.customData;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (nameError || isSubmitting) return;
    setSubmitting(true);
    try {
      const tenant = await create({ name: name.trim() || DEFAULT_TENANT_NAME, regionName: region, tag: 'development' });
      // Chips marked invalid are never sent.
      const invitees = chips.filter((chip) => chip.status !== 'error').map((chip) => chip.value);
      if (invitees.length > 0) {
        await inviteToTenant(tenant.id, { invitee: invitees, roleName: 'collaborator' }).catch(() => {
          toast.error(t('onboarding.invitation_failed'), { durationMs: 5000 });
        });
      }
      await updateCustomData.mutateAsync(withDefaultTenant(withOnboardingDone(customData, true), tenant.id));
      navigate(`/${encodeURIComponent(tenant.id)}`, { replace: true });
    } catch {
      // The query client toasted the error; the form stays for another try.
      setSubmitting(false);
    }
  };

  return (
    <CloudPage title={t('onboarding.title')} subtitle={t('onboarding.subtitle')}>
      <form
        className={cloudPageStyles.list}
        noValidate
        onSubmit={(event) => {
          void submit(event);
        }}
      >
        <TenantFields
          name={name}
          onNameChange={setName}
          nameError={nameError}
          isNameRequired={false}
          namePlaceholder={DEFAULT_TENANT_NAME}
          region={region}
          onRegionChange={setRegion}
        />
        <FormField
          name="collaborators"
          label={t('onboarding.collaborators')}
          description={t('onboarding.collaborators_description')}
        >
          <EmailChipInput values={chips} onChange={setChips} placeholder={t('onboarding.collaborators_placeholder')} />
        </FormField>
        <div className={cloudPageStyles.actions}>
          <Button variant="primary" type="submit" isLoading={isSubmitting}>
            {t('onboarding.create')}
          </Button>
        </div>
      </form>
    </CloudPage>
  );
}
