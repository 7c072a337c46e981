import 'uplot/dist/uPlot.min.css';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import shared from '../../components/shared.module.css';
import { useTranslation } from '../../i18n/react.tsx';
import type { DailyPoint } from './ActiveUsersTable.tsx';
import styles from './Dashboard.module.css';
import { dayToDate, formatCount, formatDay } from './format.ts';

const CHART_HEIGHT = 240;

/** The theme's colours, read from the CSS variables of theme.css (they differ in light and dark). */
function themeColours() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    line: read('--color-primary'),
    fill: read('--color-primary-surface'),
    grid: read('--color-border'),
    text: read('--color-text-muted'),
    font: read('--font-family'),
  };
}

/** The theme's colours, read again when `<html data-theme>` changes, so the chart redraws in the new ones. */
function useThemeColours() {
  const [colours, setColours] = useState(themeColours);
  useEffect(() => {
    const observer = new MutationObserver(() => setColours(themeColours()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return colours;
}

/** The day under the cursor and where its point is, in CSS pixels from the chart frame's top left corner. */
type Tip = { index: number; left: number; top: number };

/** The day a key moves to from `index` (the axis runs left to right in every language), or undefined. */
export function dayAfterKey(key: string, index: number | undefined, length: number): number | undefined {
  const last = length - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  if (key === 'ArrowLeft') return Math.max(0, (index ?? last) - 1);
  if (key === 'ArrowRight') return Math.min(last, (index ?? last) + 1);
  return undefined;
}

type ChartLook = {
  width: number;
  colours: ReturnType<typeof themeColours>;
  language: string;
  seriesLabel: string;
  /** Called when uPlot's cursor moves (or leaves), to place the tooltip. */
  onCursor: (chart: uPlot) => void;
};

/** uPlot's options for the daily series: UTC days along x, whole users along y, the theme's colours. */
function chartOptions({ width, colours, language, seriesLabel, onCursor }: ChartLook): uPlot.Options {
  const font = `12px ${colours.font}`;
  const axis = {
    stroke: colours.text,
    font,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
  };
  const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  return {
    width,
    height: CHART_HEIGHT,
    // Days are UTC days: keep the axis in UTC so no label moves by the viewer's time zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    hooks: { setCursor: [onCursor] },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.2))] } },
    axes: [
      {
        ...axis,
        values: (_u, splits) => splits.map((seconds) => formatDay(dayOf(seconds), language)),
      },
      {
        ...axis,
        size: 48,
        // Whole users only: no '0.5' ticks on a small tenant.
        splits: (_u, _axis, min, max) => {
          const step = Math.max(1, Math.ceil((max - min) / 4));
          return Array.from({ length: Math.floor((max - min) / step) + 1 }, (_, index) => min + index * step);
        },
        values: (_u, splits) => splits.map((value) => formatCount(value, language)),
      },
    ],
    series: [
      {},
      {
        label: seriesLabel,
        stroke: colours.line,
        fill: colours.fill,
        width: 2,
        points: { show: true, size: 6, fill: colours.line },
      },
    ],
  };
}

/**
 * Daily active users as a line over the chosen days (uPlot, loaded lazily with this module). The canvas is
 * decorative for assistive technology: the page renders the same series as a table beside it. Hovering a day, or
 * focusing the chart and moving with the arrow keys, shows a tooltip with the day and its count (issue 26).
 */
export default function ActiveUsersChart({ points }: { points: readonly DailyPoint[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const frame = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const colours = useThemeColours();
  const language = i18n.language;
  const seriesLabel = t('chart.active_users');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const xs = points.map((point) => dayToDate(point.date).getTime() / 1000);
    const ys = points.map((point) => point.count);
    const onCursor = (u: uPlot) => {
      const index = u.cursor.idx;
      const x = index == null ? undefined : xs[index];
      const y = index == null ? undefined : ys[index];
      const outer = frame.current;
      if (index == null || x === undefined || y === undefined || !outer || (u.cursor.left ?? -1) < 0) {
        setTip(null);
        return;
      }
      const over = u.over.getBoundingClientRect();
      const origin = outer.getBoundingClientRect();
      setTip({
        index,
        left: over.left - origin.left + u.valToPos(x, 'x'),
        top: over.top - origin.top + u.valToPos(y, 'y'),
      });
    };
    const options = chartOptions({ width: element.clientWidth || 600, colours, language, seriesLabel, onCursor });
    const chart = new uPlot(options, [xs, ys], element);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.current = null;
      setTip(null);
      chart.destroy();
    };
  }, [points, language, seriesLabel, colours]);

  /** Puts uPlot's cursor on a day, which shows its point and, through the hook, the tooltip; none hides it. */
  function showDay(index: number | undefined) {
    const chart = plot.current;
    const point = index === undefined ? undefined : points[index];
    if (!chart) return;
    if (!point) {
      chart.setCursor({ left: -10, top: -10 });
      return;
    }
    chart.setCursor({
      left: chart.valToPos(dayToDate(point.date).getTime() / 1000, 'x'),
      top: chart.valToPos(point.count, 'y'),
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    const next = dayAfterKey(event.key, tip?.index, points.length);
    if (next === undefined) return;
    event.preventDefault();
    showDay(next);
  }

  const tipPoint = tip ? points[tip.index] : undefined;
  const tipText = tipPoint && {
    day: formatDay(tipPoint.date, language, 'long'),
    value: formatCount(tipPoint.count, language),
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable chart area that the arrow keys move through, not a fieldset.
    <div
      ref={frame}
      className={styles.chartFrame}
      role="group"
      aria-label={t('chart.explore')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the tooltips through this focus.
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => showDay(tip?.index ?? points.length - 1)}
      onBlur={() => showDay(undefined)}
    >
      <div ref={container} className={styles.chart} data-testid="dau-chart" aria-hidden="true" dir="ltr" />
      {tip && tipText && (
        <div
          className={styles.tooltip}
          style={{ left: tip.left, top: tip.top }}
          data-testid="dau-tooltip"
          aria-hidden="true"
        >
          <span className={styles.tooltipDay}>{tipText.day}</span>
          <span className={styles.tooltipValue}>
            <span>{seriesLabel}</span>
            <strong>{tipText.value}</strong>
          </span>
        </div>
      )}
      {/* What the tooltip shows, read out as the arrow keys move (the canvas and tooltip are hidden from them). */}
      <p className={shared.visuallyHidden} aria-live="polite">
        {tipText ? t('chart.tooltip', tipText) : ''}
      </p>
    </div>
  );
}
