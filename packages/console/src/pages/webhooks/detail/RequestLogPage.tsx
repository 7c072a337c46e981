import type { HookLog } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useHookLog, useReplayHookLog } from '../../../api/webhooks.ts';
import { BackLink } from '../../../components/BackLink/BackLink.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import { AttemptStatus, attemptText } from '../HookFacts.tsx';
import { toHook, toHookLog } from '../links.ts';
import styles from '../Webhooks.module.css';

/** JSON bodies indented for reading; anything else as it was sent. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * Spec §2.2 webhooks/{hookId}/recent-requests/{logId}: one attempt with its request and response. Replay sends the
 * recorded body again and opens the new attempt.
 */
export function RequestLogPage() {
  const { t } = useTranslation('webhooks');
  const common = useTranslation('components').t;
  const { hookId = '', logId = '' } = useParams();
  const resolve = useTenantPath();
  const log = useHookLog(hookId, logId);
  useDocumentTitle(log.data ? t('log.title', { event: log.data.event }) : t('log.back'));

  let content: ReactNode;
  if (log.isPending) {
    content = (
      <p role="status" className={styles.muted}>
        <Spinner /> {common('loading')}
      </p>
    );
  } else if (log.error || !log.data) {
    const isMissing = log.error instanceof ApiError && log.error.status === 404;
    content = (
      <section aria-live="polite">
        <h1 className={styles.pageTitle}>{common(isMissing ? 'detail_page.not_found' : 'detail_page.error')}</h1>
        {!isMissing && <Button onClick={() => void log.refetch()}>{common('table.retry')}</Button>}
      </section>
    );
  } else {
    content = <LoadedLog log={log.data} />;
  }
  return (
    <div className={styles.page}>
      <BackLink to={resolve(toHook(hookId, 'recent-requests'))}>{t('log.back')}</BackLink>
      {content}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt className={styles.factLabel}>{label}</dt>
      <dd className={styles.factValue}>{children}</dd>
    </div>
  );
}

function LoadedLog({ log }: { log: HookLog }) {
  const { t } = useTranslation('webhooks');
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const toast = useToast();
  const formatTime = useDateTimeFormat();
  const replay = useReplayHookLog(log.hookId, log.id);

  async function sendAgain() {
    try {
      const attempt = await replay.mutateAsync();
      toast.success(t('log.replayed'));
      await navigate(resolve(toHookLog(log.hookId, attempt.id)));
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
  }

  return (
    <>
      <header className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('log.title', { event: log.event })}</h1>
        <Button variant="primary" onClick={sendAgain}>
          {t('log.replay')}
        </Button>
      </header>
      <Card title={t('log.summary')}>
        <dl className={styles.facts}>
          <Fact label={t('requests.status')}>
            <AttemptStatus log={log} />
          </Fact>
          <Fact label={t('requests.event')}>
            <code dir="ltr">{log.event}</code>
          </Fact>
          <Fact label={t('requests.duration')}>{t('requests.duration_ms', { value: log.durationMs })}</Fact>
          <Fact label={t('requests.time')}>{formatTime(log.createdAt)}</Fact>
          <Fact label={t('log.attempt')}>{attemptText(t, log)}</Fact>
          {log.deliveryId && (
            <Fact label={t('log.delivery')}>
              <code dir="ltr">{log.deliveryId}</code>
            </Fact>
          )}
          {log.replayOf && (
            <Fact label={t('log.replay_of')}>
              <Link to={resolve(toHookLog(log.hookId, log.replayOf))}>{t('log.replay_of_link')}</Link>
            </Fact>
          )}
          {log.error && <Fact label={t('test.error')}>{log.error}</Fact>}
        </dl>
      </Card>
      <Card title={t('log.request')}>
        <dl className={styles.facts}>
          <Fact label={t('fields.url')}>
            <code dir="ltr">{log.request.url}</code>
          </Fact>
        </dl>
        <h3 className={styles.sectionTitle}>{t('log.request_headers')}</h3>
        <CodeBlock
          code={JSON.stringify(log.request.headers, null, 2)}
          label={t('log.request_headers')}
          copyLabel={t('log.copy')}
        />
        <h3 className={styles.sectionTitle}>{t('log.request_body')}</h3>
        <CodeBlock code={pretty(log.request.body)} label={t('log.request_body')} copyLabel={t('log.copy')} />
      </Card>
      <Card title={t('log.response')}>
        <dl className={styles.facts}>
          <Fact label={t('test.status')}>{log.responseStatus ?? t('test.no_response')}</Fact>
        </dl>
        <h3 className={styles.sectionTitle}>{t('log.response_body')}</h3>
        <CodeBlock
          code={log.responseBody ? pretty(log.responseBody) : t('log.empty_body')}
          label={t('log.response_body')}
          copyLabel={t('log.copy')}
        />
      </Card>
    </>
  );
}
