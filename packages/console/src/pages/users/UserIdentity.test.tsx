// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../../components/testing/render.tsx';
import { UserIdentity } from './UserIdentity.tsx';

// Issue 26: a Latin name or email in an Arabic console (and the reverse) keeps its own direction, while the styled
// line around it keeps the page's alignment and ellipsis.
describe('UserIdentity', () => {
  it('gives the name and the identifiers under it their own direction', () => {
    renderWithI18n(
      <UserIdentity
        user={{
          id: 'u1',
          name: 'Ada Lovelace',
          username: 'ada',
          primaryEmail: 'ada@example.com',
          primaryPhone: null,
          avatar: null,
        }}
      />,
    );
    const name = screen.getByText('Ada Lovelace');
    expect(name.getAttribute('dir')).toBe('auto');
    expect(name.parentElement?.hasAttribute('dir')).toBe(false);
    expect(screen.getByText(/ada@example\.com/).getAttribute('dir')).toBe('auto');
  });
});
