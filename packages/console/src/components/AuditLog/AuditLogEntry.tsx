import { type Log, redactSecrets } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { BackLink } from '../BackLink/BackLink.tsx';
import { Button } from '../Button/Button.tsx';
import { Card } from '../Card/Card.tsx';
import { CodeEditor } from '../CodeEditor/CodeEditor.tsx';
import { CopyButton } from '../CopyButton/CopyButton.tsx';
import { PageHeader } from '../PageHeader/PageHeader.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import { Tag, type TagStatus } from '../Tag/Tag.tsx';
import { useDocumentTitle } from '../use-document-title.ts';
import styles from './AuditLog.module.css';
import { LogResultTag } from './LogResultTag.tsx';
import { logApplicationId, logUserId } from './log-actors.ts';
import { type ChangeKind, logChanges } from './log-changes.ts';

export type AuditLogEntryProps = {
  /** The logs tab the entry was opened from, and its name ('Back to the user's logs'). */
  backTo: string;
  backLabel: string;
  log: Log | undefined;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
};

/** One audit-log entry as a page: its facts, what an admin write changed (before and after), and the payload. */
export function AuditLogEntry({ backTo, backLabel, log, isLoading, error, onRetry }: AuditLogEntryProps) {
  const { t } = useTranslation(['components_extra', 'components']);
  useDocumentTitle(log?.key ?? backLabel);
  const back = <BackLink to={backTo}>{backLabel}</BackLink>;
  let content: ReactNode;
  if (isLoading) {
    content = (
      <p role="status" className={styles.state}>
        <Spinner /> {t('components:loading')}
      </p>
    );
  } else if (error || !log) {
    const isMissing = error instanceof ApiError && error.status === 404;
    content = (
      <>
        <p role="alert" className={styles.state}>
          {isMissing ? t('audit_log.not_found') : t('audit_log.load_failed')}
        </p>
        {!isMissing && onRetry && <Button onClick={onRetry}>{t('components:table.retry')}</Button>}
      </>
    );
  } else {
    content = <LoadedEntry log={log} />;
  }
  return (
    <div className={styles.page}>
      {back}
      {content}
    </div>
  );
}

function LoadedEntry({ log }: { log: Log }) {
  const { t, i18n } = useTranslation(['components_extra', 'components']);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'medium' });
  const { payload } = log;
  const facts: { key: string; label: string; value: string | undefined }[] = [
    { key: 'time', label: t('audit_log.time'), value: time.format(log.createdAt) },
    { key: 'user', label: t('audit_log.user_id'), value: logUserId(log) },
    { key: 'application', label: t('audit_log.application_id'), value: logApplicationId(log) },
    {
      key: 'entity',
      label: t('audit_log.entity'),
      value: payload.entity && `${payload.entity.type} ${payload.entity.id}`,
    },
    { key: 'ip', label: t('audit_log.ip'), value: payload.ip },
    { key: 'user_agent', label: t('audit_log.user_agent'), value: payload.userAgent },
    { key: 'request', label: t('audit_log.request_id'), value: payload.requestId },
    {
      key: 'error',
      label: t('audit_log.error'),
      value: payload.error === undefined ? undefined : String(errorText(payload.error)),
    },
  ];
  // Secrets are never put on the screen, not even inside the raw payload; one rule for both views.
  const hidden = t('audit_log.hidden');
  const changes = logChanges(payload, hidden);
  const json = JSON.stringify(redactSecrets(payload, hidden), null, 2);
  return (
    <>
      <PageHeader
        title={<code className={styles.title}>{log.key}</code>}
        actions={<LogResultTag result={payload.result} />}
      />
      <Card title={t('audit_log.details')}>
        <dl className={styles.facts}>
          {facts
            .filter((fact) => fact.value)
            .map((fact) => (
              <div key={fact.key} className={styles.fact}>
                <dt className={styles.factLabel}>{fact.label}</dt>
                <dd className={styles.factValue}>{fact.value}</dd>
              </div>
            ))}
        </dl>
      </Card>
      {changes.length > 0 && (
        <Card title={t('audit_log.changes')} description={t('audit_log.changes_description')}>
          <div className={styles.scroller}>
            <table className={styles.changes} aria-label={t('audit_log.changes')}>
              <thead>
                <tr>
                  <th scope="col">{t('audit_log.field')}</th>
                  <th scope="col">{t('audit_log.change')}</th>
                  <th scope="col">{t('audit_log.before')}</th>
                  <th scope="col">{t('audit_log.after')}</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.field}>
                    <th scope="row">
                      <code className={styles.path}>{change.field}</code>
                    </th>
                    <td>
                      <Tag status={kindStatus[change.kind]}>{t(`audit_log.kinds.${change.kind}`)}</Tag>
                    </td>
                    {change.isHidden ? (
                      <td colSpan={2} className={styles.muted}>
                        {t('audit_log.secret_changed')}
                      </td>
                    ) : (
                      <>
                        <td className={styles.before}>{change.before ? <code>{change.before}</code> : <NoValue />}</td>
                        <td className={styles.after}>{change.after ? <code>{change.after}</code> : <NoValue />}</td>
                      </>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      <Card title={t('audit_log.payload')} actions={<CopyButton value={json} label={t('audit_log.copy_payload')} />}>
        <CodeEditor value={json} language="json" isReadOnly aria-label={t('audit_log.payload_json')} />
      </Card>
    </>
  );
}

const kindStatus: Record<ChangeKind, TagStatus> = { added: 'success', removed: 'error', changed: 'info' };

function NoValue() {
  const { t } = useTranslation(['components_extra', 'components']);
  return <span className={styles.muted}>{t('audit_log.none')}</span>;
}

function errorText(error: unknown): string {
  return typeof error === 'string' ? error : JSON.stringify(error);
}
