import type { CountWithDelta } from '@gatehouse/schemas';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Dashboard.module.css';
import { formatCount, formatDelta } from './format.ts';

export type StatTileProps = {
  label: string;
  /** The number, or undefined while loading or after an error (a placeholder is shown). */
  value: number | undefined;
  /** The change from the previous period and what that period is ('vs yesterday'). */
  change?: { delta: CountWithDelta['delta'] | undefined; comparedTo: string } | undefined;
  testId: string;
};

/** One figure of the dashboard: label, value and its change, as a term and its descriptions of a `<dl>`. */
export function StatTile({ label, value, change, testId }: StatTileProps) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const delta = change?.delta;
  const trend = delta === undefined || delta === 0 ? 'flat' : delta > 0 ? 'up' : 'down';
  return (
    <div className={styles.tile} data-testid={testId}>
      <dt className={styles.tileLabel}>{label}</dt>
      <dd className={styles.tileValue} data-testid={`${testId}-value`}>
        {value === undefined ? <span className={styles.placeholder} /> : formatCount(value, language)}
      </dd>
      {change && (
        <dd className={styles.tileDelta} data-trend={trend}>
          {delta !== undefined && (
            <>
              <span aria-hidden="true">{trend === 'up' ? '▲' : trend === 'down' ? '▼' : '■'} </span>
              <span dir="ltr">{formatDelta(delta, language)}</span> {change.comparedTo}
            </>
          )}
        </dd>
      )}
    </div>
  );
}
