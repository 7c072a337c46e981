import { redirectUriKind } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useCreateApplication } from '../../../api/applications.ts';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
import { Button, buttonClassName } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { FormCardRadio, FormCheckbox } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormMultiTextInput } from '../../../components/form/bound/FormListInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { SetIcon } from '../../../components/icons.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { applicationTypeIcons, applicationTypeOrder, traitsOf } from '../application-types.ts';
import { ruleWording } from '../form/rules.ts';
import { useRuleMessages } from '../form/use-rule-messages.ts';
import { toApplication, toApplicationGuide, toApplications } from '../links.ts';
import styles from './CreateApplicationPage.module.css';
import {
  applicationQuotaKey,
  type CreateFormOutput,
  type CreateFormValues,
  createFormPath,
  createFormSchema,
  emptyCreateForm,
  toNewApplication,
} from './create-form.ts';

/** Spec §2.2 'applications/create': pick a type, then the fields that type has. */
export function CreateApplicationPage() {
  const { t } = useTranslation('applications');
  useDocumentTitle(t('create.title'));
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const toast = useToast();
  const messages = useRuleMessages();
  const resolver = useMemo(() => schemaResolver(createFormSchema(messages), ruleWording(messages)), [messages]);
  const { control, handleSubmit, setError, formState } = useForm<CreateFormValues, unknown, CreateFormOutput>({
    resolver,
    mode: 'onBlur',
    defaultValues: emptyCreateForm,
  });
  const type = useWatch({ control, name: 'type' });
  const isThirdParty = useWatch({ control, name: 'isThirdParty' });
  const traits = type && traitsOf(type);
  const create = useCreateApplication();
  const submitWith = useSubmitHandler();

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      let created: { id: string };
      try {
        created = await create.mutateAsync(toNewApplication(values));
      } catch (error) {
        if (applyServerErrors({ setError }, error, { paths: createFormPath })) return;
        throw error;
      }
      toast.success(t('create.created', { name: values.name }));
      // The first guide of the type shows how to use the new application; types without one open its settings.
      const [guide] = traitsOf(values.type).guides;
      navigate(resolve(guide ? toApplicationGuide(created.id, guide) : toApplication(created.id)));
    }),
  );

  return (
    <>
      <PageHeader title={t('create.title')} subtitle={t('create.subtitle')} />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <Card title={t('create.type_title')}>
          <FormCardRadio
            name="type"
            control={control}
            label={t('fields.type')}
            isRequired
            options={applicationTypeOrder.map((value) => ({
              value,
              title: t(`types.${value}.name`),
              description: t(`types.${value}.description`),
              icon: <SetIcon icon={applicationTypeIcons[value]} />,
            }))}
          />
        </Card>
        {type && traits && (
          <Card title={t('create.details_title', { type: t(`types.${type}.name`) })}>
            <div className={styles.fields}>
              <FormTextInput name="name" control={control} label={t('fields.name')} isRequired autoComplete="off" />
              <FormTextInput name="description" control={control} label={t('fields.description')} autoComplete="off" />
              {traits.redirectUris && (
                <FormMultiTextInput
                  name="redirectUris"
                  control={control}
                  label={t('fields.redirectUris')}
                  description={t(`hints.redirect_uris_${redirectUriKind(type)}`)}
                  itemLabel={t('fields.redirectUri')}
                  placeholder={t(`placeholders.redirect_uri_${redirectUriKind(type)}`)}
                />
              )}
              {traits.thirdParty && (
                <FormCheckbox
                  name="isThirdParty"
                  control={control}
                  label={t('fields.isThirdParty')}
                  inlineLabel={t('create.third_party_label')}
                  description={t('hints.third_party')}
                />
              )}
            </div>
          </Card>
        )}
        <div className={styles.actions}>
          <Link to={resolve(toApplications())} className={buttonClassName()}>
            {t('actions.cancel')}
          </Link>
          <PlanGate quota={applicationQuotaKey(type ?? 'SPA', Boolean(traits?.thirdParty && isThirdParty))}>
            <Button type="submit" variant="primary" disabled={!type} isLoading={formState.isSubmitting}>
              {t('create.submit')}
            </Button>
          </PlanGate>
        </div>
      </form>
    </>
  );
}
