import shared from '../../components/shared.module.css';
import { useTranslation } from '../../i18n/react.tsx';
import { formatCount, formatDay } from './format.ts';

export type DailyPoint = { date: string; count: number };

/**
 * The chart's text alternative: the same series as a table, read by screen readers, hidden on screen.
 * Hidden by a wrapping div, not on the table itself: a table's height is its rows' however small it is set, so a
 * hidden table of 30 days still made the page scroll far past its content (issue 26).
 */
export function ActiveUsersTable({ points, captionId }: { points: readonly DailyPoint[]; captionId: string }) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <div className={shared.visuallyHidden}>
      <table aria-labelledby={captionId}>
        <thead>
          <tr>
            <th scope="col">{t('chart.day')}</th>
            <th scope="col">{t('chart.active_users')}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.date}>
              <th scope="row">{formatDay(point.date, i18n.language, 'long')}</th>
              <td>{formatCount(point.count, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
