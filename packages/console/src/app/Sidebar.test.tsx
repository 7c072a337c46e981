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

// happy-dom has no layout: this checks the styles that keep a label whole and in place, not a measured box (the shell's
// e2e spec measures the labels at 1280 and 1440 px in English, German and Arabic).
describe('sidebar labels (issues 26 and 40)', () => {
  it('show the whole label, wrapping instead of an ellipsis, and name the link by it', () => {
    renderSidebarAt('/organization-template');
    const link = screen.getByRole('link', { name: 'Organization template' });
    expect(link.getAttribute('aria-current')).toBe('page');
    const text = screen.getByText('Organization template');
    expect(link.contains(text)).toBe(true);
    for (const element of [text, text.parentElement as HTMLElement]) {
      const style = getComputedStyle(element);
      expect(style.textOverflow, 'never cut with an ellipsis').not.toBe('ellipsis');
      expect(style.whiteSpace, 'may wrap to a second line').not.toBe('nowrap');
      expect(style.overflow, 'nothing clipped').not.toBe('hidden');
    }
    // A word longer than the sidebar breaks rather than running out of it.
    expect(getComputedStyle(text.parentElement as HTMLElement).overflowWrap).toBe('anywhere');
  });

  it('size every label by its text in the active weight too, so becoming active moves nothing', () => {
    renderSidebarAt('/organization-template');
    for (const name of ['Organization template', 'Organizations']) {
      const label = screen.getByText(name).parentElement as HTMLElement;
      expect(label.dataset.label, 'the copy the invisible ::after draws in bold').toBe(name);
      expect(getComputedStyle(label).display).toBe('grid');
    }
    expect(screen.getByRole('link', { name: 'Organizations' }).hasAttribute('aria-current')).toBe(false);
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
