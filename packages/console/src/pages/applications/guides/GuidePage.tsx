import type { Application } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useApplication } from '../../../api/applications.ts';
import { ApiError } from '../../../api/client.ts';
import { useTenantEndpoints } from '../../../api/tenant-endpoints.ts';
import { BackLink } from '../../../components/BackLink/BackLink.tsx';
import { Button, buttonClassName } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { traitsOf } from '../application-types.ts';
import { toApplication, toApplicationGuide, toApplications } from '../links.ts';
import styles from './Guide.module.css';
import { type GuideId, guideContext, guideSteps, isGuideId } from './guides.ts';

/** Spec §2.2 'applications/{id}/guide/{guideId}': an integration guide with this application's values filled in. */
export function GuidePage() {
  const { t } = useTranslation('applications');
  const { id = '', guideId } = useParams();
  const resolve = useTenantPath();
  const application = useApplication(id);
  const app = application.data;
  const isOffered = app !== undefined && isGuideId(guideId) && traitsOf(app.type).guides.includes(guideId);
  useDocumentTitle(isGuideId(guideId) ? t(`guides.${guideId}.title`) : t('guides.not_found'));
  const back = (
    <BackLink to={resolve(app ? toApplication(app.id) : toApplications())}>
      {app ? t('guides.back', { name: app.name }) : t('detail.back')}
    </BackLink>
  );

  if (application.isPending) {
    return (
      <div className={styles.page}>
        {back}
        <p role="status" className={styles.state}>
          <Spinner /> {t('settings.loading')}
        </p>
      </div>
    );
  }
  if (application.isError || !isOffered) {
    const isMissing =
      !application.isError || (application.error instanceof ApiError && application.error.status === 404);
    return (
      <div className={styles.page}>
        {back}
        <p role="alert" className={styles.state}>
          {isMissing ? t('guides.not_found') : t('settings.load_failed')}
        </p>
        {!isMissing && <Button onClick={() => void application.refetch()}>{t('actions.retry')}</Button>}
      </div>
    );
  }
  return <Guide application={app} guide={guideId} back={back} />;
}

function Guide({ application, guide, back }: { application: Application; guide: GuideId; back: ReactNode }) {
  const { t } = useTranslation('applications');
  const resolve = useTenantPath();
  const { endpoints, discovery, isError } = useTenantEndpoints();
  const others = traitsOf(application.type).guides.filter((other) => other !== guide);

  let content: ReactNode;
  if (isError) {
    content = (
      <p role="alert" className={styles.state}>
        {t('endpoints.load_failed')}
      </p>
    );
  } else if (!endpoints || !discovery.data) {
    content = (
      <p role="status" className={styles.state}>
        <Spinner /> {t('settings.loading')}
      </p>
    );
  } else {
    const context = guideContext(guide, application, {
      issuer: endpoints.issuer,
      tokenEndpoint: discovery.data.token_endpoint,
      managementApi: endpoints.managementApi,
      managementResource: endpoints.managementResource,
    });
    content = (
      <>
        {context.missing.redirectUri && (
          <p className={styles.note} role="note">
            {t('guides.example_redirect', { uri: context.redirectUri })}{' '}
            <Link to={resolve(toApplication(application.id))}>{t('guides.open_settings')}</Link>
          </p>
        )}
        {context.missing.postLogoutRedirectUri && (
          <p className={styles.note} role="note">
            {t('guides.example_post_logout', { uri: context.postLogoutRedirectUri })}{' '}
            <Link to={resolve(toApplication(application.id))}>{t('guides.open_settings')}</Link>
          </p>
        )}
        <ol className={styles.steps}>
          {guideSteps(guide, context).map((step, index) => (
            <li key={step.id} className={styles.step}>
              <Card title={t('guides.step', { number: index + 1, title: t(`guide_steps.${step.id}.title`) })}>
                <p className={styles.body}>{t(`guide_steps.${step.id}.body`)}</p>
                {step.code && (
                  <CodeBlock
                    code={step.code.text}
                    label={t('guides.code', { step: index + 1 })}
                    copyLabel={t('guides.copy_code', { step: index + 1 })}
                  />
                )}
              </Card>
            </li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <div className={styles.page}>
      {back}
      <PageHeader
        title={t(`guides.${guide}.title`)}
        subtitle={t('guides.for_application', { name: application.name })}
        actions={
          <Link to={resolve(toApplication(application.id))} className={buttonClassName('primary')}>
            {t('guides.done')}
          </Link>
        }
      />
      <p className={styles.summary}>{t(`guides.${guide}.summary`)}</p>
      {content}
      {others.length > 0 && (
        <nav aria-label={t('guides.other')} className={styles.others}>
          {others.map((other) => (
            <Link key={other} to={resolve(toApplicationGuide(application.id, other))}>
              {t(`guides.${other}.title`)}
            </Link>
          ))}
        </nav>
      )}
    </div>
  );
}
