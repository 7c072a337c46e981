// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../components/testing/render-page.tsx';
import apiResources from '../i18n/locales/en/api_resources.json';
import applications from '../i18n/locales/en/applications.json';
import auditLogs from '../i18n/locales/en/audit_logs.json';
import connectors from '../i18n/locales/en/connectors.json';
import organizationTemplate from '../i18n/locales/en/organization_template.json';
import organizations from '../i18n/locales/en/organizations.json';
import roles from '../i18n/locales/en/roles.json';
import users from '../i18n/locales/en/users.json';
import webhooks from '../i18n/locales/en/webhooks.json';
import { ResourcesPage } from './api-resources/ResourcesPage.tsx';
import { ApplicationsPage } from './applications/list/ApplicationsPage.tsx';
import { AuditLogsPage } from './audit-logs/AuditLogsPage.tsx';
import { SocialTab } from './connectors/SocialTab.tsx';
import { OrganizationPermissionsTab } from './organization-template/permissions/OrganizationPermissionsTab.tsx';
import { OrganizationRolesTab } from './organization-template/roles/OrganizationRolesTab.tsx';
import { OrganizationsPage } from './organizations/OrganizationsPage.tsx';
import { RolesPage } from './roles/RolesPage.tsx';
import { UsersPage } from './users/list/UsersPage.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';

// Every list answers an empty page: what is under test is what each page says then, not the API.
const { emptyPage } = vi.hoisted(() => ({
  emptyPage: () => ({ data: { items: [], total: 0 }, isPending: false, error: null, refetch: () => undefined }),
}));
vi.mock('../api/applications.ts', async (original) => ({
  ...(await original<typeof import('../api/applications.ts')>()),
  useApplicationsPage: emptyPage,
  // The audit log's pickers search as they open.
  searchApplications: async () => [],
}));
vi.mock('../api/resources.ts', async (original) => ({
  ...(await original<typeof import('../api/resources.ts')>()),
  useResources: emptyPage,
}));
vi.mock('../api/roles.ts', async (original) => ({
  ...(await original<typeof import('../api/roles.ts')>()),
  useRoles: emptyPage,
}));
vi.mock('../api/users.ts', async (original) => ({
  ...(await original<typeof import('../api/users.ts')>()),
  useUsers: emptyPage,
  searchUsers: async () => [],
}));
vi.mock('../api/organizations.ts', async (original) => ({
  ...(await original<typeof import('../api/organizations.ts')>()),
  useOrganizations: emptyPage,
}));
vi.mock('../api/webhooks.ts', async (original) => ({
  ...(await original<typeof import('../api/webhooks.ts')>()),
  useHooks: emptyPage,
}));
vi.mock('../api/logs.ts', async (original) => ({
  ...(await original<typeof import('../api/logs.ts')>()),
  useLogs: emptyPage,
}));
vi.mock('../api/organization-template.ts', async (original) => ({
  ...(await original<typeof import('../api/organization-template.ts')>()),
  useOrganizationRoles: emptyPage,
  useOrganizationScopes: emptyPage,
}));
vi.mock('../api/connectors.ts', async (original) => ({
  ...(await original<typeof import('../api/connectors.ts')>()),
  useConnectors: () => ({ data: [], isPending: false, isError: false, refetch: () => undefined }),
}));

type Case = {
  page: string;
  element: ReactElement;
  path: string;
  namespaces: Record<string, object>;
  /** The sentence saying what the thing is for. */
  sentence: string;
  /** The first action: the page's create button or link; none on a log. */
  action?: { role: 'button' | 'link'; name: string };
  /** Whether the page has a search box (a search that finds nothing makes no pitch). */
  isSearchable: boolean;
};

const cases: Case[] = [
  {
    page: 'applications',
    element: <ApplicationsPage />,
    path: '/applications',
    namespaces: { applications },
    sentence: applications.list.empty_description,
    action: { role: 'link', name: applications.create.title },
    isSearchable: true,
  },
  {
    page: 'third-party applications',
    element: <ApplicationsPage isThirdParty />,
    path: '/applications',
    namespaces: { applications },
    sentence: applications.list.empty_third_party_description,
    action: { role: 'link', name: applications.create.title },
    isSearchable: true,
  },
  {
    page: 'API resources',
    element: <ResourcesPage />,
    path: '/api-resources',
    namespaces: { api_resources: apiResources },
    sentence: apiResources.table.empty_description,
    action: { role: 'button', name: apiResources.create },
    isSearchable: true,
  },
  {
    page: 'roles',
    element: <RolesPage />,
    path: '/roles',
    namespaces: { roles },
    sentence: roles.list.empty,
    action: { role: 'button', name: roles.create.action },
    isSearchable: true,
  },
  {
    page: 'users',
    element: <UsersPage />,
    path: '/users',
    namespaces: { users },
    sentence: users.list.empty,
    action: { role: 'button', name: users.create.action },
    isSearchable: true,
  },
  {
    page: 'organizations',
    element: <OrganizationsPage />,
    path: '/organizations',
    namespaces: { organizations },
    sentence: organizations.list.empty,
    action: { role: 'button', name: organizations.create.action },
    isSearchable: true,
  },
  {
    page: 'organization roles',
    element: <OrganizationRolesTab />,
    path: '/organization-template/organization-roles',
    namespaces: { organization_template: organizationTemplate },
    sentence: organizationTemplate.roles.empty_description,
    action: { role: 'button', name: organizationTemplate.roles.create },
    isSearchable: true,
  },
  {
    page: 'organization permissions',
    element: <OrganizationPermissionsTab />,
    path: '/organization-template/organization-permissions',
    namespaces: { organization_template: organizationTemplate },
    sentence: organizationTemplate.permissions.empty_description,
    action: { role: 'button', name: organizationTemplate.permissions.create },
    isSearchable: true,
  },
  {
    page: 'social connectors',
    element: <SocialTab />,
    path: '/connectors/social',
    namespaces: { connectors },
    sentence: connectors.social.none,
    action: { role: 'link', name: connectors.social.add },
    isSearchable: false,
  },
  {
    page: 'webhooks',
    element: <WebhooksPage />,
    path: '/webhooks',
    namespaces: { webhooks },
    sentence: webhooks.list.empty,
    action: { role: 'button', name: webhooks.create.action },
    isSearchable: true,
  },
  {
    page: 'audit logs',
    element: <AuditLogsPage />,
    path: '/audit-logs',
    namespaces: { audit_logs: auditLogs },
    sentence: auditLogs.list.empty_description,
    isSearchable: false,
  },
];

/** The empty state around a sentence: the element holding the sentence's paragraph. */
const emptyStateOf = (sentence: string) => {
  const container = screen.getByText(sentence).parentElement;
  if (!container) throw new Error(`no empty state around “${sentence}”`);
  return container;
};

describe('list pages with nothing yet (issue 26)', () => {
  it.each(cases)(
    '$page: says what it is for and offers the first action',
    ({ element, path, namespaces, ...expected }) => {
      renderPage(element, { path, namespaces });
      const state = emptyStateOf(expected.sentence);
      expect(state.querySelector('svg[aria-hidden="true"]'), 'the area’s icon').not.toBeNull();
      if (expected.action) {
        expect(within(state).getByRole(expected.action.role, { name: expected.action.name })).toBeTruthy();
        // The empty state's action replaces the header's: one 'Create …' on the page.
        expect(screen.getAllByRole(expected.action.role, { name: expected.action.name })).toHaveLength(1);
      } else {
        expect(within(state).queryByRole('button')).toBeNull();
        expect(within(state).queryByRole('link')).toBeNull();
      }
    },
  );

  it.each(cases.filter((entry) => entry.isSearchable))(
    '$page: a search that finds nothing says so, without the pitch, the header staying',
    ({ element, path, namespaces, sentence, ...expected }) => {
      renderPage(element, { path: `${path}?search=zz`, route: path, namespaces });
      expect(screen.getByTestId('no-results').textContent).toBe('No results for “\u2068zz\u2069”');
      expect(screen.queryByText(sentence)).toBeNull();
      expect(screen.getAllByRole('columnheader').length).toBeGreaterThan(0);
      if (expected.action) {
        expect(screen.getAllByRole(expected.action.role, { name: expected.action.name }), 'the header’s').toHaveLength(
          1,
        );
      }
    },
  );
});
