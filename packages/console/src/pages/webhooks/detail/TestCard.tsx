import { type Hook, type HookEvent, type HookTestResult, hookTestResultSchema } from '@gatehouse/schemas';
import { useState } from 'react';
import { useTestHook } from '../../../api/webhooks.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { Select } from '../../../components/form/Select.tsx';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { isHookEvent } from '../form/events.ts';
import { AttemptStatus } from '../HookFacts.tsx';
import styles from '../Webhooks.module.css';

/** Spec §3 browser storage 'webhook test result': the last result stays while the tab lives (reload included). */
const storageKey = (hookId: string) => `gatehouse:webhook-test-result:${hookId}`;

function readStored(hookId: string): HookTestResult | undefined {
  try {
    const parsed = hookTestResultSchema.safeParse(JSON.parse(sessionStorage.getItem(storageKey(hookId)) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function store(hookId: string, result: HookTestResult) {
  try {
    sessionStorage.setItem(storageKey(hookId), JSON.stringify(result));
  } catch {
    // Storage can be full or disabled; the result still shows.
  }
}

/** Sends a sample payload of one of the webhook's events to the saved endpoint and shows what came back. */
export function TestCard({ hook }: { hook: Hook }) {
  const { t } = useTranslation('webhooks');
  const toast = useToast();
  const test = useTestHook(hook.id);
  const events = hook.events.filter(isHookEvent);
  const [event, setEvent] = useState<HookEvent | undefined>(events[0]);
  const [result, setResult] = useState<HookTestResult | undefined>(() => readStored(hook.id));

  async function send() {
    try {
      const outcome = await test.mutateAsync(event && events.includes(event) ? event : events[0]);
      setResult(outcome);
      store(hook.id, outcome);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
  }

  return (
    <Card title={t('test.title')} description={t('test.description')}>
      <div className={styles.testRow}>
        <FormField name="test-event" label={t('test.event')} className={styles.testEvent}>
          <Select
            value={event ?? ''}
            onChange={(change) => setEvent(isHookEvent(change.target.value) ? change.target.value : undefined)}
            options={events.map((value) => ({ value, label: value }))}
          />
        </FormField>
        <Button variant="primary" onClick={send} className={styles.testButton}>
          {t('test.send')}
        </Button>
      </div>
      {result && (
        <section className={styles.result} aria-label={t('test.result')} aria-live="polite" data-testid="test-result">
          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt className={styles.factLabel}>{t('test.status')}</dt>
              <dd className={styles.factValue}>
                <AttemptStatus log={result} />
              </dd>
            </div>
            <div className={styles.fact}>
              <dt className={styles.factLabel}>{t('test.duration')}</dt>
              <dd className={styles.factValue}>{t('requests.duration_ms', { value: result.durationMs })}</dd>
            </div>
            {result.error && (
              <div className={styles.fact}>
                <dt className={styles.factLabel}>{t('test.error')}</dt>
                <dd className={styles.factValue}>{result.error}</dd>
              </div>
            )}
          </dl>
          <h3 className={styles.sectionTitle}>{t('test.response')}</h3>
          <CodeBlock
            code={result.responseBody || t('log.empty_body')}
            label={t('test.response')}
            copyLabel={t('log.copy')}
          />
        </section>
      )}
    </Card>
  );
}
