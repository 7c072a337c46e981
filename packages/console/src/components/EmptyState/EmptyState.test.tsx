// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Plug } from 'lucide';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { EmptyState, NoResults } from './EmptyState.tsx';

describe('EmptyState (issue 26)', () => {
  it('shows a decorative icon, the title, what the thing is for and the first action', () => {
    renderWithI18n(
      <EmptyState
        icon={Plug}
        title="No widgets yet"
        description="Widgets hold the sprockets together."
        action={<button type="button">Create widget</button>}
        data-testid="widgets-empty"
      />,
    );
    const state = screen.getByTestId('widgets-empty');
    const icon = state.querySelector('svg');
    expect(icon?.getAttribute('aria-hidden')).toBe('true');
    expect(icon?.querySelector('path')).not.toBeNull();
    expect(state.textContent).toBe('No widgets yetWidgets hold the sprockets together.Create widget');
    expect(screen.getByRole('button', { name: 'Create widget' })).toBeTruthy();
  });

  it('leaves out what it is not given', () => {
    renderWithI18n(<EmptyState description="Nothing has been logged yet." data-testid="logs-empty" />);
    const state = screen.getByTestId('logs-empty');
    expect(state.querySelector('svg')).toBeNull();
    expect(state.children).toHaveLength(1);
  });
});

describe('NoResults (issue 26)', () => {
  it('says a search found nothing, the query isolated so its direction cannot reorder the sentence', () => {
    renderWithI18n(<NoResults search="مرحبا">Unused</NoResults>);
    expect(screen.getByTestId('no-results').textContent).toBe('No results for “\u2068مرحبا\u2069”');
  });

  it('uses the page’s words when only filters are set', () => {
    renderWithI18n(<NoResults search="">No role of this type.</NoResults>);
    expect(screen.getByTestId('no-results').textContent).toBe('No role of this type.');
  });
});
