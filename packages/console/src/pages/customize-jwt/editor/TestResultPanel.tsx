import type { JwtCustomizerTestResult } from '@gatehouse/schemas';
import type { JwtScriptError } from '../../../api/jwt-customizer.ts';
import { CodeBlock } from '../../../components/CodeBlock/CodeBlock.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../CustomizeJwt.module.css';

export type TestOutcome =
  | { kind: 'result'; result: JwtCustomizerTestResult }
  | { kind: 'error'; error: JwtScriptError };

/** What the last Test gave: the token payload with the script's claims and the reserved claims it dropped, or the error. */
export function TestResultPanel({ outcome }: { outcome: TestOutcome }) {
  const { t } = useTranslation('customize_jwt');
  if (outcome.kind === 'error') {
    return (
      <section className={styles.testError} role="alert" aria-label={t('test.failed')} data-testid="test-error">
        <h3 className={styles.sectionTitle}>{t('test.failed')}</h3>
        <dl className={styles.facts}>
          <dt>{t('test.error_name')}</dt>
          <dd dir="ltr">{outcome.error.name}</dd>
          <dt>{t('test.error_message')}</dt>
          <dd dir="ltr">{outcome.error.message}</dd>
        </dl>
      </section>
    );
  }
  const { payload, droppedClaims } = outcome.result;
  return (
    <section className={styles.testResult} aria-label={t('test.result')} data-testid="test-result">
      <h3 className={styles.sectionTitle}>{t('test.result')}</h3>
      <CodeBlock code={JSON.stringify(payload, null, 2)} label={t('test.payload')} copyLabel={t('test.copy')} />
      {droppedClaims.length > 0 && (
        <div className={styles.dropped} role="note" data-testid="dropped-claims">
          <p>{t('test.dropped')}</p>
          <ul className={styles.claimList}>
            {droppedClaims.map((claim) => (
              <li key={claim}>
                <code dir="ltr">{claim}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
