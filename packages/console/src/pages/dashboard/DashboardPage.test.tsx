// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import dashboard from '../../i18n/locales/en/dashboard.json';
import { dayAfterKey } from './ActiveUsersChart.tsx';
import { DashboardPage } from './DashboardPage.tsx';
import { hasActivity } from './format.ts';

const { curve } = vi.hoisted(() => ({ curve: { counts: [] as number[] } }));
const days = () =>
  curve.counts.map((count, index) => ({ date: `2026-11-${String(index + 1).padStart(2, '0')}`, count }));
const delta = { count: 0, delta: 0 };

vi.mock('../../api/dashboard.ts', () => ({
  useTotalUsers: () => ({ data: { totalUserCount: 0 }, isPending: false, error: null, refetch: vi.fn() }),
  useNewUsers: () => ({ data: { today: delta, last7Days: delta }, isPending: false, error: null, refetch: vi.fn() }),
  useActiveUsers: () => ({
    data: { dau: delta, wau: delta, mau: delta, dauCurve: days() },
    isPending: false,
    error: null,
    refetch: vi.fn(),
  }),
}));
// uPlot draws on a canvas, which happy-dom has not: the page around the chart is under test here.
vi.mock('./ActiveUsersChart.tsx', async (original) => ({
  ...(await original<typeof import('./ActiveUsersChart.tsx')>()),
  default: () => <div data-testid="dau-chart" />,
}));

const open = () => renderPage(<DashboardPage />, { path: '/dashboard', namespaces: { dashboard } });

describe('the daily active users chart (issue 26)', () => {
  beforeEach(() => {
    curve.counts = [];
  });

  it('explains what will appear, and when, while no day has an active user, instead of a flat line', async () => {
    curve.counts = Array.from({ length: 30 }, () => 0);
    open();
    expect((await screen.findByTestId('dau-no-data')).textContent).toBe(dashboard.chart.no_data);
    expect(screen.queryByTestId('dau-chart')).toBeNull();
    expect(screen.queryByTestId('dau-legend')).toBeNull();
    // The text alternative stays as it is: every day, read by assistive technology.
    expect(screen.getAllByRole('row')).toHaveLength(31);
  });

  it('draws the chart with a legend naming its line once a day has an active user', async () => {
    curve.counts = Array.from({ length: 30 }, (_, index) => (index === 29 ? 2 : 0));
    open();
    expect(await screen.findByTestId('dau-chart')).toBeTruthy();
    expect(screen.getByTestId('dau-legend').textContent).toBe('Active users');
    expect(screen.queryByTestId('dau-no-data')).toBeNull();
  });

  it('counts only days above zero as activity', () => {
    expect(hasActivity([])).toBe(false);
    expect(hasActivity([{ count: 0 }, { count: 0 }])).toBe(false);
    expect(hasActivity([{ count: 0 }, { count: 1 }])).toBe(true);
  });

  it('moves the tooltip with the arrow keys, Home and End, starting from the last day', () => {
    expect(dayAfterKey('ArrowLeft', undefined, 30)).toBe(28);
    expect(dayAfterKey('ArrowLeft', 0, 30)).toBe(0);
    expect(dayAfterKey('ArrowRight', 28, 30)).toBe(29);
    expect(dayAfterKey('ArrowRight', 29, 30)).toBe(29);
    expect(dayAfterKey('Home', 12, 30)).toBe(0);
    expect(dayAfterKey('End', 3, 30)).toBe(29);
    expect(dayAfterKey('Enter', 3, 30)).toBeUndefined();
  });
});
