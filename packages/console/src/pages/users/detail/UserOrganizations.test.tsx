// @vitest-environment happy-dom
import type { OrganizationWithRoles, User } from '@gatehouse/schemas';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import users from '../../../i18n/locales/en/users.json';
import { UserOrganizations } from './UserOrganizations.tsx';

const organization = {
  tenantId: 'default',
  id: 'o1',
  name: 'شركة أكمي',
  description: 'Seeded for demos.',
  customData: {},
  isMfaRequired: false,
  branding: {},
  createdAt: 0,
  organizationRoles: [{ id: 'r1', name: 'Billing admin' }],
} as unknown as OrganizationWithRoles;
vi.mock('../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/users.ts')>()),
  useUserOrganizations: () => ({
    data: { items: [organization], total: 1 },
    isPending: false,
    error: null,
    refetch: () => {},
  }),
}));
vi.mock('./user-context.ts', () => ({ useUserOutlet: () => ({ user: { id: 'u1', name: 'Ada' } as User }) }));

describe('UserOrganizations', () => {
  it('gives the organization’s name, description and role names their own direction (issue 26)', () => {
    renderPage(<UserOrganizations />, { path: '/users/u1/organizations', namespaces: { users } });
    for (const text of ['شركة أكمي', 'Seeded for demos.', 'Billing admin']) {
      const element = screen.getByText(text);
      expect(element.getAttribute('dir')).toBe('auto');
      expect(element.parentElement?.hasAttribute('dir')).toBe(false);
    }
  });
});
