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
    expect(screen.getByText('ada').getAttribute('dir')).toBe('auto');
    // An address reads left to right in every language, isolated from the text around it.
    expect(
      screen
        .getByText((_, element) => element?.textContent === 'ada@example.com' && element.tagName === 'SPAN')
        .getAttribute('dir'),
    ).toBe('ltr');
  });

  it('wraps an email only before its @ and dots, and leaves it out where the row shows it elsewhere', () => {
    const user = {
      id: 'u1',
      name: 'Ada',
      username: null,
      primaryEmail: 'ada.lovelace@example.com',
      primaryPhone: null,
      avatar: null,
    };
    const { container, unmount } = renderWithI18n(<UserIdentity user={user} />);
    const email = container.querySelector('[dir="ltr"]') as HTMLElement;
    expect(email.innerHTML).toBe('ada<wbr>.lovelace<wbr>@example<wbr>.com');
    expect(getComputedStyle(email).overflowWrap).toBe('normal');
    unmount();
    renderWithI18n(<UserIdentity user={user} withEmail={false} />);
    expect(screen.queryByText(/example/)).toBeNull();
  });
});
