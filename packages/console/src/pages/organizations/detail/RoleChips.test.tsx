// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../../../components/testing/render.tsx';
import { RoleChips } from './RoleChips.tsx';

describe('RoleChips', () => {
  it('gives each role name its own direction inside the chip (issue 26)', () => {
    renderWithI18n(
      <RoleChips
        roles={[
          { id: 'r1', name: 'مدير' },
          { id: 'r2', name: 'Billing admin' },
        ]}
      />,
    );
    for (const name of ['مدير', 'Billing admin']) {
      const text = screen.getByText(name);
      expect(text.getAttribute('dir')).toBe('auto');
      expect(text.parentElement?.hasAttribute('dir')).toBe(false);
    }
  });
});
