// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../../components/testing/render.tsx';
import { ActiveUsersTable, type DailyPoint } from './ActiveUsersTable.tsx';

const points: DailyPoint[] = Array.from({ length: 30 }, (_, index) => ({
  date: `2026-11-${String(index + 1).padStart(2, '0')}`,
  count: index * 3,
}));

describe('the active-users chart table', () => {
  // happy-dom has no layout, so this checks the styles that do the clipping, not a measured height. A table keeps
  // its rows' height whatever height it is given (issue 26: the dashboard scrolled ~820 px past its content), so
  // the 1 px clipping box must be a block around it, not the table itself.
  it('is clipped by a 1 px block wrapper, not by styles on the table', () => {
    renderWithI18n(<ActiveUsersTable points={points} captionId="chart-title" />);
    const table = screen.getByRole('table');
    expect(table.getAttribute('aria-labelledby')).toBe('chart-title');
    expect(getComputedStyle(table).position).not.toBe('absolute');

    const wrapper = table.parentElement;
    expect(wrapper?.tagName).toBe('DIV');
    const style = getComputedStyle(wrapper as HTMLElement);
    expect(style.position).toBe('absolute');
    expect(style.height).toBe('1px');
    expect(style.overflow).toBe('hidden');
    expect(style.clipPath).toBe('inset(50%)');
  });

  it('still gives screen readers every day', () => {
    renderWithI18n(<ActiveUsersTable points={points} captionId="chart-title" />);
    expect(screen.getAllByRole('row')).toHaveLength(points.length + 1);
  });
});
