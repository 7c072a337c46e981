// @vitest-environment happy-dom
import type {
  Organization,
  ScimConnection,
  ScimConnectionCreate,
  ScimConnectionPatch,
  ScimConnectionWithToken,
  ScimGroup,
  ScimProvisionedUser,
  ScimRequest,
  SsoConnectorWithProviderConfig,
  User,
} from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/enterprise_sso.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { SsoConnectorDetailsPage } from './detail/SsoConnectorDetailsPage.tsx';
import { ProvisioningTab } from './provisioning/ProvisioningTab.tsx';
import { SetUpProvisioningModal } from './provisioning/SetUpProvisioningModal.tsx';

// The provisioning tab's states and what it sends (issue 45); the API itself is the server tests' (writes recorded).

const connector: SsoConnectorWithProviderConfig = {
  tenantId: 'default',
  id: 'sso1',
  providerName: 'OIDC',
  providerType: 'OIDC',
  connectorName: 'Acme OIDC',
  providerLogo: '/console/sso/oidc.svg',
  providerLogoDark: null,
  config: {},
  domains: ['acme.test'],
  branding: {},
  syncProfile: false,
  enableTokenStorage: false,
  createdAt: Date.UTC(2026, 10, 1),
};

const saved: ScimConnection = {
  tenantId: 'default',
  id: 'scim1',
  name: 'Acme directory',
  ssoConnectorId: 'sso1',
  groupMapping: { kind: 'organization', organizationId: 'org1' },
  deprovision: 'suspend',
  baseUrl: 'https://id.example.com/scim/v2',
  hasToken: true,
  tokenCreatedAt: Date.UTC(2026, 10, 2),
  lastRequestAt: Date.UTC(2026, 10, 3),
  createdAt: Date.UTC(2026, 10, 2),
  updatedAt: Date.UTC(2026, 10, 2),
};

const organizations: Organization[] = [
  {
    tenantId: 'default',
    id: 'org1',
    name: 'Acme Corp',
    description: null,
    customData: {},
    isMfaRequired: false,
    color: {},
    branding: {},
    customCss: null,
    createdAt: Date.UTC(2026, 10, 1),
  },
];

const ada: User = {
  id: 'user1',
  username: null,
  primaryEmail: 'ada@acme.test',
  primaryPhone: null,
  name: 'Ada Lovelace',
  avatar: null,
  customData: {},
  identities: {},
  profile: {},
  isSuspended: false,
  hasPassword: false,
  lastSignInAt: null,
  createdAt: Date.UTC(2026, 10, 3),
  updatedAt: Date.UTC(2026, 10, 3),
};
const provisionedUsers: ScimProvisionedUser[] = [
  { userName: 'ada@acme.test', externalId: 'ext-1', createdAt: ada.createdAt, updatedAt: ada.updatedAt, user: ada },
];
const groups: ScimGroup[] = [
  {
    id: 'g1',
    displayName: 'Engineering',
    externalId: null,
    memberCount: 3,
    createdAt: ada.createdAt,
    updatedAt: ada.updatedAt,
  },
];
const requests: ScimRequest[] = [
  {
    id: '2',
    method: 'POST',
    path: '/Users',
    status: 409,
    scimType: 'uniqueness',
    createdAt: Date.UTC(2026, 10, 3, 10),
  },
  { id: '1', method: 'POST', path: '/Users', status: 201, scimType: null, createdAt: Date.UTC(2026, 10, 3, 9) },
];

const state: {
  connection: ScimConnection | null;
  creates: ScimConnectionCreate[];
  patches: ScimConnectionPatch[];
  rotations: number;
  revocations: number;
  deletions: number;
  failure?: ApiError;
} = { connection: null, creates: [], patches: [], rotations: 0, revocations: 0, deletions: 0 };

const withToken = (connection: ScimConnection, token: string): ScimConnectionWithToken => ({ ...connection, token });

vi.mock('../../api/sso-connectors.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sso-connectors.ts')>()),
  useSsoProviders: () => ({ isPending: false, isError: false, data: [] }),
  useSsoConnector: () => ({ isPending: false, data: connector, error: null, refetch: async () => undefined }),
}));

vi.mock('../../api/organizations.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/organizations.ts')>()),
  useOrganizations: () => ({ isPending: false, data: { items: organizations, total: organizations.length } }),
}));

vi.mock('../../api/scim-connections.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/scim-connections.ts')>()),
  useScimConnectionOf: () => ({ isPending: false, isError: false, data: state.connection }),
  useMappedOrganization: (id: string) => ({ data: organizations.find((organization) => organization.id === id) }),
  useCreateScimConnection: () => ({
    mutateAsync: async (input: ScimConnectionCreate) => {
      if (state.failure) throw state.failure;
      state.creates.push(input);
      state.connection = {
        ...saved,
        name: input.name,
        groupMapping: input.groupMapping ?? { kind: 'roles' },
        deprovision: input.deprovision ?? 'suspend',
        lastRequestAt: null,
      };
      return withToken(state.connection, 'scim_firsttoken0000000000000000000000000000');
    },
  }),
  useUpdateScimConnection: () => ({
    mutateAsync: async (patch: ScimConnectionPatch) => {
      if (state.failure) throw state.failure;
      state.patches.push(patch);
      return { ...saved, ...patch };
    },
  }),
  useRotateScimToken: () => ({
    mutateAsync: async () => {
      state.rotations += 1;
      return withToken(saved, 'scim_rotatedtoken00000000000000000000000000');
    },
  }),
  useRevokeScimToken: () => ({
    mutateAsync: async () => {
      state.revocations += 1;
      return new Response(null, { status: 204 });
    },
  }),
  useDeleteScimConnection: () => ({
    mutateAsync: async () => {
      state.deletions += 1;
      return new Response(null, { status: 204 });
    },
  }),
  useScimRequests: () => ({ isPending: false, isFetching: false, error: null, data: requests }),
  useScimUsers: () => ({ isPending: false, error: null, data: { items: provisionedUsers, total: 1 } }),
  useScimGroups: () => ({ isPending: false, error: null, data: { items: groups, total: 1 } }),
  useRefreshScimActivity: () => async () => undefined,
}));

function open(path: string) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'enterprise_sso', strings);
  const router = createMemoryRouter(
    [
      {
        path: '/enterprise-sso/:ssoConnectorId',
        element: <SsoConnectorDetailsPage />,
        children: [
          {
            path: 'provisioning',
            element: <ProvisioningTab />,
            children: [{ path: 'setup', element: <SetUpProvisioningModal /> }],
          },
        ],
      },
      { path: '*', element: null },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), router };
}

beforeEach(() => {
  state.connection = null;
  state.creates = [];
  state.patches = [];
  state.rotations = 0;
  state.revocations = 0;
  state.deletions = 0;
  state.failure = undefined;
});

const errorOf = (name: string) => screen.queryByTestId(`${name}-error`);

describe('the provisioning tab', () => {
  it('without a connection, says what provisioning is for and opens the setup dialog', async () => {
    const { user, router } = open('/enterprise-sso/sso1/provisioning');
    expect(await screen.findByText('No SCIM provisioning yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Provisioning' }).getAttribute('aria-current')).toBe('page');
    await user.click(screen.getByRole('button', { name: 'Set up provisioning' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/enterprise-sso/sso1/provisioning/setup'));
    const dialog = await screen.findByRole('dialog', { name: 'Set up SCIM provisioning' });
    // Named after the connector; tenant roles and suspend are the defaults.
    expect((within(dialog).getByRole('textbox', { name: /Connection name/ }) as HTMLInputElement).value).toBe(
      'Acme OIDC',
    );
    expect((within(dialog).getByRole('radio', { name: /Tenant roles/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByRole('radio', { name: /Suspend the account/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('sets up an organization mapping: no organization is refused before sending, then the token shows once', async () => {
    const { user, router } = open('/enterprise-sso/sso1/provisioning/setup');
    const dialog = await screen.findByRole('dialog', { name: 'Set up SCIM provisioning' });
    await user.click(within(dialog).getByRole('radio', { name: /One organization/ }));
    await user.click(within(dialog).getByRole('radio', { name: /Delete the account/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Set up' }));
    expect(errorOf('organizationId')?.textContent).toBe('Choose an organization');
    expect(state.creates).toEqual([]);

    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Organization/ }), 'org1');
    await user.click(within(dialog).getByRole('button', { name: 'Set up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/enterprise-sso/sso1/provisioning'));
    expect(state.creates).toEqual([
      {
        name: 'Acme OIDC',
        ssoConnectorId: 'sso1',
        groupMapping: { kind: 'organization', organizationId: 'org1' },
        deprovision: 'delete',
      },
    ]);
    const token = await screen.findByTestId('scim-token');
    expect(token.textContent).toContain('scim_firsttoken');
    expect(within(token).getByRole('alert').textContent).toContain('it is shown only this once');
    expect(within(token).getByRole('button', { name: 'Copy Bearer token' })).toBeTruthy();
    expect(screen.getByTestId('scim-endpoint').textContent).toContain('https://id.example.com/scim/v2');

    // Hidden, it is gone for good: the page says when it was made.
    await user.click(within(token).getByRole('button', { name: 'Hide token' }));
    expect(screen.getByTestId('scim-token').textContent).not.toContain('scim_firsttoken');
    expect(screen.getByTestId('scim-token').textContent).toContain('A token is shown only when it is made');
  });

  it('puts an organization deleted meanwhile under the organization field', async () => {
    state.failure = new ApiError(404, 'The organization does not exist.', 'entity.relation_foreign_key_not_found', {
      ids: ['org1'],
    });
    const { user } = open('/enterprise-sso/sso1/provisioning/setup');
    const dialog = await screen.findByRole('dialog', { name: 'Set up SCIM provisioning' });
    await user.click(within(dialog).getByRole('radio', { name: /One organization/ }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Organization/ }), 'org1');
    await user.click(within(dialog).getByRole('button', { name: 'Set up' }));
    await waitFor(() => expect(errorOf('organizationId')?.textContent).toBe('The organization does not exist.'));
    expect(screen.getByRole('dialog', { name: 'Set up SCIM provisioning' })).toBeTruthy();
  });

  it('rotates and revokes the token, each after asking', async () => {
    state.connection = saved;
    const { user } = open('/enterprise-sso/sso1/provisioning');
    const endpoint = await screen.findByTestId('scim-endpoint');
    expect(endpoint.textContent).toContain('https://id.example.com/scim/v2');
    expect(screen.getByTestId('scim-token').textContent).not.toContain('scim_');

    await user.click(screen.getByRole('button', { name: 'Rotate token' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Rotate the token?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(state.rotations).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Rotate token' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Rotate the token?' })).getByRole('button', {
        name: 'Rotate',
      }),
    );
    await waitFor(() => expect(screen.getByTestId('scim-token').textContent).toContain('scim_rotatedtoken'));
    expect(state.rotations).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Revoke token' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Revoke the token?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await waitFor(() => expect(state.revocations).toBe(1));
    expect(screen.getByTestId('scim-token').textContent).not.toContain('scim_rotatedtoken');
  });

  it('saves the settings; switching to tenant roles sends no organization', async () => {
    state.connection = saved;
    const { user } = open('/enterprise-sso/sso1/provisioning');
    const select = (await screen.findByRole('combobox', { name: /Organization/ })) as HTMLSelectElement;
    expect(select.value).toBe('org1');
    await user.click(screen.getByRole('radio', { name: /Tenant roles/ }));
    expect(screen.queryByRole('combobox', { name: /Organization/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      name: 'Acme directory',
      groupMapping: { kind: 'roles' },
      deprovision: 'suspend',
    });
  });

  it('lists the last requests, the provisioned users (linked to their page) and groups; deletes after asking', async () => {
    state.connection = saved;
    const { user } = open('/enterprise-sso/sso1/provisioning');
    const requestRows = within(await screen.findByRole('table', { name: 'Recent requests' })).getAllByRole('row');
    expect(requestRows[1]?.textContent).toContain('409');
    expect(requestRows[1]?.textContent).toContain('uniqueness');
    expect(requestRows[2]?.textContent).toContain('201');
    const users = screen.getByRole('table', { name: 'Provisioned users' });
    expect(
      within(users)
        .getByRole('link', { name: /Ada Lovelace/ })
        .getAttribute('href'),
    ).toBe('/users/user1/settings');
    expect(within(users).getAllByRole('row')[1]?.textContent).toContain('ext-1');
    expect(screen.getByRole('table', { name: 'Provisioned groups' }).textContent).toContain('Engineering');

    await user.click(screen.getByRole('button', { name: 'Delete provisioning' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete SCIM provisioning?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(state.deletions).toBe(1));
  });
});
