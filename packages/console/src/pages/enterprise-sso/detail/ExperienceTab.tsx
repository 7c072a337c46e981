import type { SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useDeleteSsoConnector, useUpdateSsoConnector } from '../../../api/sso-connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormMultiTextInput } from '../../../components/form/bound/FormListInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { TrashIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../EnterpriseSso.module.css';
import { toSsoConnectors } from '../links.ts';
import {
  type ExperienceForm,
  experienceFieldOf,
  experienceFormSchema,
  experiencePatchOf,
  ssoWording,
  toExperienceForm,
} from '../sso-form.ts';
import { useSsoConnectorOutlet } from './sso-context.ts';

/** A domain name's shape, the same in every language (RFC 2606's example domain). */
const domainPlaceholder = 'example.com';

/**
 * Spec §2.2 enterprise-sso/{id}/experience: how the connector shows on the sign-in page (button text, logos), the email
 * domains whose users it signs in, whether sign-ins update the profile; and deleting it.
 */
export function ExperienceTab() {
  const { t } = useTranslation('enterprise_sso');
  const { connector } = useSsoConnectorOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateSsoConnector(connector.id);
  const { control, handleSubmit, reset, setError, formState } = useForm<ExperienceForm>({
    resolver: useMemo(() => schemaResolver<ExperienceForm>(experienceFormSchema, ssoWording(t), { raw: true }), [t]),
    mode: 'onBlur',
    defaultValues: toExperienceForm(connector),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toExperienceForm(await update.mutateAsync(experiencePatchOf(values))));
      } catch (error) {
        const mapping = {
          codes: { 'single_sign_on.forbidden_domains': 'domains' as const },
          paths: experienceFieldOf,
        };
        if (applyServerErrors({ setError }, error, mapping)) return;
        throw error;
      }
      toast.success(t('experience.saved'));
    }),
  );

  return (
    <div className={styles.cards}>
      <DetailsForm
        isDirty={formState.isDirty}
        isSubmitting={formState.isSubmitting}
        onDiscard={() => reset()}
        onSubmit={onSubmit}
      >
        <Card title={t('experience.button_title')} description={t('experience.button_description')}>
          <div className={styles.fields}>
            <FormTextInput
              name="displayName"
              control={control}
              label={t('fields.display_name')}
              description={t('experience.display_name_hint')}
              placeholder={connector.connectorName}
              autoComplete="off"
            />
            <FormTextInput
              name="logo"
              control={control}
              type="url"
              dir="ltr"
              label={t('fields.logo')}
              placeholder="https://"
            />
            <FormTextInput
              name="darkLogo"
              control={control}
              type="url"
              dir="ltr"
              label={t('fields.dark_logo')}
              placeholder="https://"
            />
            <ButtonPreview connector={connector} control={control} />
          </div>
        </Card>
        <Card title={t('experience.domains_title')} description={t('experience.domains_description')}>
          <div className={styles.fields}>
            <FormMultiTextInput
              name="domains"
              control={control}
              label={t('fields.domains')}
              itemLabel={t('experience.domain')}
              placeholder={domainPlaceholder}
            />
          </div>
        </Card>
        <Card title={t('experience.profile_title')}>
          <FormSwitch
            name="syncProfile"
            control={control}
            label={t('fields.sync_profile')}
            inlineLabel={t('experience.sync_profile_hint')}
          />
        </Card>
      </DetailsForm>
      <DangerZone connector={connector} />
    </div>
  );
}

/** The sign-in page's button for this connector, as the form stands (display name, else the connector's name). */
function ButtonPreview({
  connector,
  control,
}: {
  connector: SsoConnectorWithProviderConfig;
  control: ReturnType<typeof useForm<ExperienceForm>>['control'];
}) {
  const { t } = useTranslation('enterprise_sso');
  const [displayName, logo] = useWatch({ control, name: ['displayName', 'logo'] });
  const name = displayName.trim() || connector.connectorName;
  const src = /^https?:\/\//.test(logo.trim()) ? logo.trim() : connector.providerLogo;
  return (
    <div className={styles.preview}>
      <span className={styles.muted}>{t('experience.preview')}</span>
      <span className={styles.previewButton} data-testid="button-preview">
        <img className={styles.logo} src={src} alt="" width={24} height={24} />
        <UserText>{t('experience.continue_with', { name })}</UserText>
      </span>
    </div>
  );
}

/** Deleting the connector: its users keep their accounts but can no longer sign in through it. */
function DangerZone({ connector }: { connector: SsoConnectorWithProviderConfig }) {
  const { t } = useTranslation('enterprise_sso');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const remove = useDeleteSsoConnector(connector.id);

  async function run() {
    const name = connector.connectorName;
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.content', { name }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { name }));
    await navigate(resolve(toSsoConnectors()), { replace: true });
  }

  return (
    <Card title={t('delete.zone_title')}>
      <div className={styles.danger}>
        <p>{t('delete.zone_description')}</p>
        <Button variant="dangerOutline" icon={<TrashIcon />} onClick={run}>
          {t('delete.action')}
        </Button>
      </div>
    </Card>
  );
}
