import { type Log, redactSecrets } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Card } from '../Card/Card.tsx';
import { CodeEditor } from '../CodeEditor/CodeEditor.tsx';
import { CopyButton } from '../CopyButton/CopyButton.tsx';
import { PageHeader } from '../PageHeader/PageHeader.tsx';
import { Tag, type TagStatus } from '../Tag/Tag.tsx';
import styles from './AuditLog.module.css';
import { LogReferenceView } from './LogReferenceView.tsx';
import { LogResultTag } from './LogResultTag.tsx';
import { type ChangeKind, logChanges } from './log-changes.ts';
import { type AdminNames, type LogLinks, logActor, logApplication, logSubject } from './log-references.ts';

/**
 * One entry of the tenant's audit log: who did what to what, by name and linked where there is a page (a raw id only
 * when nothing better is known), the request's facts, what an admin write changed, and the payload as recorded.
 */
export function AuditLogDetails({ log, admins, links }: { log: Log; admins: AdminNames; links: LogLinks }) {
  const { t, i18n } = useTranslation(['audit_logs', 'components_extra']);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'medium' });
  const { payload } = log;
  const subject = logSubject(log, links);
  const facts: { key: string; label: string; value: ReactNode }[] = [
    { key: 'time', label: t('components_extra:audit_log.time'), value: time.format(log.createdAt) },
    {
      key: 'actor',
      label: t('audit_logs:columns.actor'),
      value: <LogReferenceView reference={logActor(log, admins, links)} />,
    },
    ...(subject
      ? [{ key: 'subject', label: t('audit_logs:columns.subject'), value: <LogReferenceView reference={subject} /> }]
      : []),
    {
      key: 'application',
      label: t('audit_logs:columns.application'),
      value: <LogReferenceView reference={logApplication(log, links)} />,
    },
    ...textFacts([
      ['ip', t('components_extra:audit_log.ip'), payload.ip],
      ['user_agent', t('components_extra:audit_log.user_agent'), payload.userAgent],
      ['request', t('components_extra:audit_log.request_id'), payload.requestId],
      [
        'error',
        t('components_extra:audit_log.error'),
        payload.error === undefined ? undefined : errorText(payload.error),
      ],
    ]),
  ];
  // Secrets are never put on the screen, not even inside the raw payload; one rule for both views.
  const hidden = t('components_extra:audit_log.hidden');
  const changes = logChanges(payload, hidden);
  const json = JSON.stringify(redactSecrets(payload, hidden), null, 2);
  return (
    <>
      <PageHeader
        title={<code className={styles.title}>{log.key}</code>}
        actions={<LogResultTag result={payload.result} />}
      />
      <Card title={t('components_extra:audit_log.details')}>
        <dl className={styles.facts}>
          {facts.map((fact) => (
            <div key={fact.key} className={styles.fact}>
              <dt className={styles.factLabel}>{fact.label}</dt>
              <dd className={styles.factValue}>{fact.value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      {changes.length > 0 && (
        <Card
          title={t('components_extra:audit_log.changes')}
          description={t('components_extra:audit_log.changes_description')}
        >
          <div className={styles.scroller}>
            <table className={styles.changes} aria-label={t('components_extra:audit_log.changes')}>
              <thead>
                <tr>
                  <th scope="col">{t('components_extra:audit_log.field')}</th>
                  <th scope="col">{t('components_extra:audit_log.change')}</th>
                  <th scope="col">{t('components_extra:audit_log.before')}</th>
                  <th scope="col">{t('components_extra:audit_log.after')}</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.field}>
                    <th scope="row">
                      <code className={styles.path}>{change.field}</code>
                    </th>
                    <td>
                      <Tag status={kindStatus[change.kind]}>{t(`components_extra:audit_log.kinds.${change.kind}`)}</Tag>
                    </td>
                    {change.isHidden ? (
                      <td colSpan={2} className={styles.muted}>
                        {t('components_extra:audit_log.secret_changed')}
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
      <Card
        title={t('components_extra:audit_log.payload')}
        actions={<CopyButton value={json} label={t('components_extra:audit_log.copy_payload')} />}
      >
        <CodeEditor value={json} language="json" isReadOnly aria-label={t('components_extra:audit_log.payload_json')} />
      </Card>
    </>
  );
}

const kindStatus: Record<ChangeKind, TagStatus> = { added: 'success', removed: 'error', changed: 'info' };

/** The request's facts that the entry has; one it lacks is left out rather than shown empty. */
function textFacts(facts: [key: string, label: string, value: string | undefined][]) {
  return facts.flatMap(([key, label, value]) => (value ? [{ key, label, value: value as ReactNode }] : []));
}

function NoValue() {
  const { t } = useTranslation('components_extra');
  return <span className={styles.muted}>{t('audit_log.none')}</span>;
}

function errorText(error: unknown): string {
  return typeof error === 'string' ? error : JSON.stringify(error);
}
