// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { EntitySearch } from '../../components/routing/area.ts';
import { renderWithI18n } from '../../components/testing/render.tsx';
import { CommandPalette } from './CommandPalette.tsx';
import type { PaletteCommand } from './commands.ts';

const pages = ['Get started', 'Applications', 'Audit logs'].map((label) => ({
  id: label,
  label,
  group: 'Pages',
  to: `/${label.toLowerCase().replace(' ', '-')}`,
}));

function renderPalette(searches: EntitySearch[] = [], commands: PaletteCommand[] = pages) {
  const onClose = vi.fn();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        Component: () => (
          <CommandPalette isOpen onClose={onClose} pages={commands} searches={searches} resolve={(p) => `/${p}`} />
        ),
      },
    ],
    { initialEntries: ['/start'] },
  );
  renderWithI18n(<RouterProvider router={router} />);
  return { router, onClose };
}

describe('CommandPalette', () => {
  it('filters as the user types and opens the chosen page with Enter', async () => {
    const user = userEvent.setup();
    const { router, onClose } = renderPalette();
    const input = screen.getByRole('combobox', { name: 'Search pages' });
    expect(document.activeElement).toBe(input);
    await user.keyboard('a');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'ApplicationsPages',
      'Audit logsPages',
      'Get startedPages',
    ]);
    await user.keyboard('{ArrowDown}');
    const active = screen.getByRole('option', { selected: true });
    expect(active.textContent).toContain('Audit logs');
    expect(input.getAttribute('aria-activedescendant')).toBe(active.id);
    await user.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/audit-logs');
  });

  it("adds the areas' entities found by name, and survives a failing search", async () => {
    const user = userEvent.setup();
    const found: EntitySearch = async (query) => [
      { id: 'a1', label: `App ${query}`, kind: 'Application', to: 'applications/a1' },
    ];
    const broken: EntitySearch = async () => {
      throw new Error('down');
    };
    const { router } = renderPalette([found, broken]);
    await user.keyboard('zeta');
    await waitFor(() => expect(screen.getByRole('option', { name: /App zeta/ })).toBeTruthy());
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/applications/a1');
  });

  it('finds a page by its keywords and shows only its label', async () => {
    const user = userEvent.setup();
    const mfa = { id: 'mfa', label: 'Multi-factor auth', keywords: ['mfa', 'totp'], group: 'Pages', to: '/mfa' };
    const { router } = renderPalette([], [...pages, mfa]);
    await user.keyboard('totp');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Multi-factor authPages']);
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/mfa');
  });
});
