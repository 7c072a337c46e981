import { isBuiltInResourceIndicator, type Resource } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useResource, useScopes } from '../../../api/resources.ts';
import { useTenantEndpoints } from '../../../api/tenant-endpoints.ts';
import { BackLink } from '../../../components/BackLink/BackLink.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { Tabs } from '../../../components/Tabs/Tabs.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../ApiResources.module.css';
import { toApiResource, toApiResourceGuide, toApiResources } from '../links.ts';
import { examplePermission, findGuide, type Guide, type GuideValues, guides, tryItCommands } from './guides.ts';

/** Spec §2.2 'api-resources/{id}/guide/{guideId}': how to protect this API with tokens of this tenant. */
export function GuidePage() {
  const { t } = useTranslation('api_resources');
  const { id = '', guideId } = useParams();
  const resolve = useTenantPath();
  const resource = useResource(id);
  const guide = findGuide(guideId);
  useDocumentTitle(resource.data ? t('guide.title', { name: resource.data.name }) : t('guide.document_title'));

  const back = (
    <BackLink to={resolve(resource.data ? toApiResource(id) : toApiResources())}>
      {resource.data ? t('guide.back', { name: resource.data.name }) : t('details.back')}
    </BackLink>
  );

  let content: ReactNode;
  if (resource.isPending) content = <LoadingState label={t('guide.loading')} />;
  else if (!resource.data) content = <Message title={t('guide.resource_error')} />;
  else if (!guide) content = <Message title={t('guide.not_found')} />;
  else if (isBuiltInResourceIndicator(resource.data.indicator)) content = <Message title={t('guide.built_in')} />;
  else content = <GuideContent resource={resource.data} guide={guide} />;

  return (
    <div className={styles.page}>
      {back}
      {content}
    </div>
  );
}

function GuideContent({ resource, guide }: { resource: Resource; guide: Guide }) {
  const { t } = useTranslation('api_resources');
  const resolve = useTenantPath();
  const { discovery: openId, isError: failed, retry } = useTenantEndpoints();
  const firstScope = useScopes(resource.id, { page: 1, pageSize: 1, search: '' });

  const values: GuideValues | undefined = openId.data && {
    indicator: resource.indicator,
    issuer: openId.data.issuer,
    jwksUri: openId.data.jwks_uri,
    tokenEndpoint: openId.data.token_endpoint,
    permission: firstScope.data?.items[0]?.name ?? examplePermission,
  };

  return (
    <>
      <PageHeader
        title={t('guide.title', { name: resource.name })}
        subtitle={t('guide.subtitle')}
        actions={
          <Link to={resolve(toApiResource(resource.id))} className={styles.linkButton}>
            {t('guide.done')}
          </Link>
        }
      />
      <Tabs
        aria-label={t('guide.choose')}
        items={guides.map((item) => ({ to: resolve(toApiResourceGuide(resource.id, item.id)), label: item.name }))}
      />
      <Card title={t('guide.values_title')} description={t('guide.values_description')}>
        <dl className={styles.values}>
          <Value label={t('guide.indicator')} value={resource.indicator} />
          {values && (
            <>
              <Value label={t('guide.issuer')} value={values.issuer} />
              <Value label={t('guide.jwks_uri')} value={values.jwksUri} />
              <Value label={t('guide.token_endpoint')} value={values.tokenEndpoint} />
            </>
          )}
        </dl>
        {!values && !failed && <LoadingState label={t('guide.discovery_loading')} />}
        {failed && (
          <div role="alert" className={styles.inlineError}>
            <p className={styles.inlineErrorText}>{t('guide.discovery_error')}</p>
            <Button onClick={retry}>{t('retry')}</Button>
          </div>
        )}
      </Card>
      {values && (
        <ol className={styles.steps}>
          <Step number={1} title={t('guide.install_title')} description={t('guide.install_description')}>
            <CodeBlock
              label={t('guide.install_title')}
              code={guide.install}
              copyLabel={t('guide.copy_code', { label: t('guide.install_title') })}
            />
          </Step>
          <Step number={2} title={t('guide.verify_title')} description={t('guide.verify_description')}>
            <CodeBlock
              label={t('guide.verify_title')}
              code={guide.code(values)}
              copyLabel={t('guide.copy_code', { label: t('guide.verify_title') })}
            />
          </Step>
          <Step number={3} title={t('guide.try_title')} description={t('guide.try_description')}>
            <CodeBlock
              label={t('guide.try_title')}
              code={tryItCommands(values)}
              copyLabel={t('guide.copy_code', { label: t('guide.try_title') })}
            />
          </Step>
        </ol>
      )}
    </>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('api_resources');
  return (
    <div className={styles.value}>
      <dt>{label}</dt>
      <dd dir="ltr">
        <CopyableValue value={value} label={t('guide.copy', { label })} />
      </dd>
    </div>
  );
}

function Step({
  number,
  title,
  description,
  children,
}: {
  number: number;
  title: string;
  description: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('api_resources');
  return (
    <li className={styles.step}>
      <Card title={t('guide.step', { number, title })} description={description}>
        {children}
      </Card>
    </li>
  );
}

function LoadingState({ label }: { label: string }) {
  return (
    <div className={styles.loading}>
      <Spinner />
      <span role="status">{label}</span>
    </div>
  );
}

function Message({ title }: { title: string }) {
  return (
    <section className={styles.message} aria-live="polite">
      <h1 className={styles.messageTitle}>{title}</h1>
    </section>
  );
}
