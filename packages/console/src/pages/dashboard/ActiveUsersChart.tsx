import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
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

/**
 * Daily active users as a line over the chosen days (uPlot, loaded lazily with this module). The canvas is
 * decorative for assistive technology: the page renders the same series as a table beside it.
 */
export default function ActiveUsersChart({ points }: { points: readonly DailyPoint[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const container = useRef<HTMLDivElement>(null);
  const colours = useThemeColours();
  const language = i18n.language;
  const seriesLabel = t('chart.active_users');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const font = `12px ${colours.font}`;
    const axis = {
      stroke: colours.text,
      font,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { stroke: colours.grid, width: 1 },
    };
    const xs = points.map((point) => dayToDate(point.date).getTime() / 1000);
    const ys = points.map((point) => point.count);
    const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height: CHART_HEIGHT,
        // Days are UTC days: keep the axis in UTC so no label moves by the viewer's time zone.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
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
      },
      [xs, ys],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, language, seriesLabel, colours]);

  return <div ref={container} className={styles.chart} data-testid="dau-chart" aria-hidden="true" dir="ltr" />;
}
