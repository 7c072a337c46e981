// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../components/testing/render.tsx';
import { Sidebar } from './Sidebar.tsx';

function renderSidebarAt(path: string): void {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <Sidebar onOpenContact={() => undefined} />
            <Outlet />
          </>
        ),
        children: [{ path: '*', element: null }],
      },
    ],
    { initialEntries: [path] },
  );
  renderWithI18n(<RouterProvider router={router} />);
}

// happy-dom has no layout: this checks the styles that keep a label on one line, not a measured height.
describe('sidebar labels (issue 26)', () => {
  it('keep the active item on one line, cut with an ellipsis, the whole label as title and name', () => {
    renderSidebarAt('/organization-template');
    const link = screen.getByRole('link', { name: 'Organization template' });
    expect(link.getAttribute('aria-current')).toBe('page');
    const label = screen.getByText('Organization template');
    expect(link.contains(label)).toBe(true);
    expect(label.getAttribute('title')).toBe('Organization template');
    const style = getComputedStyle(label);
    expect(style.whiteSpace).toBe('nowrap');
    expect(style.overflow).toBe('hidden');
    expect(style.textOverflow).toBe('ellipsis');
    // The flex item must be allowed to shrink below its text's width, or the ellipsis never shows.
    expect(Number.parseFloat(style.minWidth)).toBe(0);
  });

  it('do the same for items that are not active', () => {
    renderSidebarAt('/organization-template');
    const link = screen.getByRole('link', { name: 'Organizations' });
    expect(link.hasAttribute('aria-current')).toBe(false);
    expect(getComputedStyle(screen.getByText('Organizations')).whiteSpace).toBe('nowrap');
  });
});

describe('sidebar icons (issue 26)', () => {
  it('draw one decorative icon before each label, in the link colour, leaving the name to the label', () => {
    renderSidebarAt('/users');
    for (const name of ['Applications', 'User management', 'Audit logs']) {
      const link = screen.getByRole('link', { name });
      const icons = link.querySelectorAll('svg');
      expect(icons).toHaveLength(1);
      const [icon] = icons;
      expect(icon?.getAttribute('aria-hidden')).toBe('true');
      expect(icon?.getAttribute('stroke')).toBe('currentColor');
      expect(icon?.querySelector('path, rect, circle')).not.toBeNull();
      expect(link.firstElementChild).toBe(icon);
    }
  });
});
