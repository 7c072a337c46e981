import type { ConnectorFactory } from '@gatehouse/schemas';
import { Link, useNavigate, useParams } from 'react-router';
import { useConnectorFactories, useConnectors, useCreateConnector } from '../../../api/connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { ArrowStartIcon } from '../../../components/icons.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { nameIn, useConnectorName } from '../ConnectorFacts.tsx';
import styles from '../Connectors.module.css';
import { ConfigFields } from '../form/ConfigFields.tsx';
import { useConfigForm } from '../form/use-config-form.tsx';
import { isListTab, listTabOf, toConnector, toConnectors } from '../links.ts';
import { SocialRedirectUri } from '../SocialRedirectUri.tsx';
import { socialTargetFor, suggestSocialId } from '../social.ts';
import { ReadmeSteps } from './ReadmeSteps.tsx';

/**
 * Spec §2.2 connectors/{tab}/guide/{factoryId}: the factory's steps beside its form; creating replaces the tenant's
 * email or SMS connector (after a confirmation) and opens the new one. A social connector is added, with an id the
 * console chooses so its redirect URI shows before it exists.
 */
export function GuidePage() {
  const { t, i18n } = useTranslation('connectors');
  const { tab, factoryId = '' } = useParams();
  const resolve = useTenantPath();
  const factories = useConnectorFactories();
  const factory = factories.data?.find((candidate) => candidate.id === factoryId);
  const listTab = isListTab(tab) ? tab : 'passwordless';
  const title = factory ? t('guide.title', { name: nameIn(factory.name, i18n.language) }) : t('title');
  useDocumentTitle(title);
  return (
    <div className={styles.page}>
      <Link to={resolve(toConnectors(listTab))} className={styles.backLink}>
        <ArrowStartIcon /> {t('back')}
      </Link>
      {factories.isPending ? (
        <Loading />
      ) : factory ? (
        <>
          <PageHeader title={title} subtitle={nameIn(factory.description, i18n.language)} />
          <GuideForm factory={factory} />
        </>
      ) : (
        <p className={styles.empty}>{t(factories.isError ? 'list.load_failed' : 'guide.not_found')}</p>
      )}
    </div>
  );
}

function GuideForm({ factory }: { factory: ConnectorFactory }) {
  const { t } = useTranslation('connectors');
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const confirm = useConfirm();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateConnector();
  const connectors = useConnectors();
  const nameOf = useConnectorName();
  const isSocial = factory.type === 'Social';
  const current = isSocial ? undefined : connectors.data?.find((connector) => connector.type === factory.type);
  // Chosen once the connectors are known, so the redirect URI shown is the one the connector gets.
  const socialId = isSocial && connectors.data ? suggestSocialId(factory, connectors.data) : undefined;
  const { form, toConfig, placeServerErrors, openTest, testDialog, retyping, secretHint } = useConfigForm(
    { factoryId: factory.id, type: factory.type, formItems: factory.formItems },
    {},
  );

  const onSubmit = form.handleSubmit(
    submitWith(async (values) => {
      if (current) {
        const isConfirmed = await confirm({
          title: t('create.replace_title'),
          content: t('create.replaces', { name: nameOf(current) }),
          confirmText: t('create.replace_confirm'),
          isDanger: true,
        });
        if (!isConfirmed) return;
      }
      try {
        const target = socialId && connectors.data ? socialTargetFor(factory, socialId, connectors.data) : undefined;
        const connector = await create.mutateAsync({
          connectorId: factory.id,
          config: toConfig(values),
          ...(socialId ? { id: socialId } : {}),
          ...(target ? { metadata: { target } } : {}),
        });
        toast.success(t('create.created', { name: nameOf(connector) }));
        await navigate(resolve(toConnector(listTabOf(connector.type), connector.id)), { replace: true });
      } catch (error) {
        if (!placeServerErrors(error)) throw error;
      }
    }),
  );

  return (
    <div className={styles.guide}>
      <Card title={t('guide.steps')}>
        <ReadmeSteps readme={factory.readme} />
      </Card>
      <form onSubmit={onSubmit} noValidate aria-label={t('guide.form')}>
        <Card title={t('connection.settings')}>
          {current && (
            <p className={styles.notice} role="note">
              {t('create.replaces', { name: nameOf(current) })}
            </p>
          )}
          {isSocial && <SocialRedirectUri connectorId={socialId} />}
          <ConfigFields
            formItems={factory.formItems}
            type={factory.type}
            control={form.control}
            retype={{ fields: retyping, hint: secretHint }}
          />
          <div className={styles.actions}>
            {/* The server sends no test for a social connector (connector.unexpected_type). */}
            {!isSocial && <Button onClick={() => openTest()}>{t('test.open')}</Button>}
            <Button
              type="submit"
              variant="primary"
              isLoading={form.formState.isSubmitting}
              disabled={isSocial && !socialId}
            >
              {t('create.submit')}
            </Button>
          </div>
        </Card>
      </form>
      {testDialog}
    </div>
  );
}
