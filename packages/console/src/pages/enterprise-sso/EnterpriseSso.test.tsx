// @vitest-environment happy-dom
import type {
  Application,
  SsoConnectorCreate,
  SsoConnectorPatch,
  SsoConnectorProvider,
  SsoConnectorWithProviderConfig,
  SsoIdpInitiatedAuthConfig,
  SsoIdpInitiatedAuthConfigInput,
} from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Navigate, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/enterprise_sso.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { CreateSsoConnectorModal } from './create/CreateSsoConnectorModal.tsx';
import { ConnectionTab } from './detail/ConnectionTab.tsx';
import { ExperienceTab } from './detail/ExperienceTab.tsx';
import { IdpInitiatedAuthTab } from './detail/IdpInitiatedAuthTab.tsx';
import { SsoConnectorDetailsPage } from './detail/SsoConnectorDetailsPage.tsx';
import { EnterpriseSsoPage } from './EnterpriseSsoPage.tsx';

// What the pages show and send is under test, not the API (the server's tests cover it): writes are recorded here.

const providers: SsoConnectorProvider[] = [
  {
    providerName: 'OIDC',
    providerType: 'OIDC',
    name: 'OIDC',
    description: 'Any OpenID Connect identity provider.',
    logo: '/console/sso/oidc.svg',
    logoDark: null,
  },
  {
    providerName: 'SAML',
    providerType: 'SAML',
    name: 'SAML',
    description: 'Any SAML 2.0 identity provider.',
    logo: '/console/sso/saml.svg',
    logoDark: null,
  },
];

const base = {
  tenantId: 'default',
  domains: [] as string[],
  branding: {},
  syncProfile: false,
  enableTokenStorage: false,
  createdAt: Date.UTC(2026, 10, 1),
  providerLogoDark: null,
};

const oidc: SsoConnectorWithProviderConfig = {
  ...base,
  id: 'oidc1',
  providerName: 'OIDC',
  providerType: 'OIDC',
  connectorName: 'Acme OIDC',
  providerLogo: '/console/sso/oidc.svg',
  config: { issuer: 'https://idp.acme.test', clientId: 'gatehouse', clientSecret: '********' },
  domains: ['acme.test'],
  providerConfig: {
    issuer: 'https://idp.acme.test',
    authorizationEndpoint: 'https://idp.acme.test/authorize',
    tokenEndpoint: 'https://idp.acme.test/token',
    jwksUri: 'https://idp.acme.test/jwks',
  },
};

const saml: SsoConnectorWithProviderConfig = {
  ...base,
  id: 'saml1',
  providerName: 'SAML',
  providerType: 'SAML',
  connectorName: 'Globex SAML',
  providerLogo: '/console/sso/saml.svg',
  config: {},
};

const application = (id: string, name: string, type: 'Traditional' | 'SPA', redirectUris: string[]): Application => ({
  tenantId: 'default',
  id,
  name,
  description: null,
  type,
  oidcClientMetadata: { redirectUris, postLogoutRedirectUris: [] },
  customClientMetadata: {},
  customData: {},
  isThirdParty: false,
  protectedAppMetadata: null,
  createdAt: Date.UTC(2026, 10, 1),
});
const applications = [
  application('portal', 'Portal', 'Traditional', [
    'https://portal.example.com/callback',
    'https://portal.example.com/cb2',
  ]),
  application('books', 'Books', 'SPA', ['https://books.example.com/callback']),
];

const savedIdpConfig: SsoIdpInitiatedAuthConfig = {
  tenantId: 'default',
  connectorId: 'saml1',
  defaultApplicationId: 'portal',
  redirectUri: 'https://portal.example.com/callback',
  authParameters: { scope: 'openid profile email', resource: 'https://api.example.com' },
  autoSendAuthorizationRequest: false,
  clientIdpInitiatedAuthCallbackUri: 'https://portal.example.com/sso-start',
  createdAt: Date.UTC(2026, 10, 2),
};

const state: {
  list: SsoConnectorWithProviderConfig[];
  detail: SsoConnectorWithProviderConfig;
  creates: SsoConnectorCreate[];
  patches: SsoConnectorPatch[];
  createFailure?: ApiError;
  updateFailure?: ApiError;
  idpConfig: SsoIdpInitiatedAuthConfig | null;
  idpPuts: SsoIdpInitiatedAuthConfigInput[];
  idpDeletes: number;
  idpFailure?: ApiError;
} = { list: [], detail: oidc, creates: [], patches: [], idpConfig: null, idpPuts: [], idpDeletes: 0 };

// The public URL comes from the console configuration (the admin tenant's issuer).
vi.mock('../../api/tenant-endpoints.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/tenant-endpoints.ts')>()),
  useConsoleConfig: () => ({ data: { issuer: 'https://id.example.com/oidc/admin' } }),
}));

vi.mock('../../api/sso-connectors.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sso-connectors.ts')>()),
  useSsoProviders: () => ({ isPending: false, isError: false, data: providers }),
  useSsoConnectors: () => ({
    isPending: false,
    error: null,
    data: { items: state.list, total: state.list.length },
    refetch: () => undefined,
  }),
  useSsoConnector: () => ({ isPending: false, data: state.detail, error: null, refetch: async () => undefined }),
  useCreateSsoConnector: () => ({
    mutateAsync: async (input: SsoConnectorCreate) => {
      if (state.createFailure) throw state.createFailure;
      state.creates.push(input);
      return { ...saml, id: 'new1', connectorName: input.connectorName };
    },
  }),
  useUpdateSsoConnector: () => ({
    mutateAsync: async (patch: SsoConnectorPatch) => {
      if (state.updateFailure) throw state.updateFailure;
      state.patches.push(patch);
      return { ...state.detail, ...patch, branding: patch.branding ?? state.detail.branding };
    },
  }),
  useDeleteSsoConnector: () => ({ mutateAsync: async () => undefined }),
  useIdpInitiatedAuthConfig: () => ({ isPending: false, isError: false, data: state.idpConfig }),
  useIdpInitiatedApplications: () => ({ isPending: false, data: applications }),
  useSaveIdpInitiatedAuthConfig: () => ({
    mutateAsync: async (input: SsoIdpInitiatedAuthConfigInput) => {
      if (state.idpFailure) throw state.idpFailure;
      state.idpPuts.push(input);
      return {
        ...savedIdpConfig,
        ...input,
        redirectUri: input.redirectUri ?? null,
        authParameters: input.authParameters ?? {},
        autoSendAuthorizationRequest: false,
        clientIdpInitiatedAuthCallbackUri: input.clientIdpInitiatedAuthCallbackUri ?? null,
      };
    },
  }),
  useDeleteIdpInitiatedAuthConfig: () => ({
    mutateAsync: async () => {
      state.idpDeletes += 1;
    },
  }),
}));

function open(path: string) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'enterprise_sso', strings);
  const router = createMemoryRouter(
    [
      {
        path: '/enterprise-sso',
        element: <EnterpriseSsoPage />,
        children: [{ path: 'create', element: <CreateSsoConnectorModal /> }],
      },
      {
        path: '/enterprise-sso/:ssoConnectorId',
        element: <SsoConnectorDetailsPage />,
        children: [
          { index: true, element: <Navigate to="connection" replace /> },
          { path: 'connection', element: <ConnectionTab /> },
          { path: 'experience', element: <ExperienceTab /> },
          { path: 'idp-initiated-auth', element: <IdpInitiatedAuthTab /> },
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
  state.list = [];
  state.detail = oidc;
  state.creates = [];
  state.patches = [];
  state.createFailure = undefined;
  state.updateFailure = undefined;
  state.idpConfig = null;
  state.idpPuts = [];
  state.idpDeletes = 0;
  state.idpFailure = undefined;
});

const errorOf = (name: string) => screen.queryByTestId(`${name}-error`);

describe('the list', () => {
  it('shows each connector with its provider, domains and whether it is ready', async () => {
    state.list = [oidc, saml];
    open('/enterprise-sso');
    const table = await screen.findByRole('table', { name: 'Enterprise SSO' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first?.textContent).toContain('Acme OIDC');
    expect(first?.textContent).toContain('acme.test');
    expect(first?.textContent).toContain('Ready');
    expect(second?.textContent).toContain('Globex SAML');
    expect(second?.textContent).toContain('No domains');
    expect(second?.textContent).toContain('Incomplete');
    expect(
      within(table)
        .getByRole('link', { name: /Acme OIDC/ })
        .getAttribute('href'),
    ).toBe('/enterprise-sso/oidc1/connection');
  });

  it('says what enterprise SSO is for while there is none, with the one way to add one', async () => {
    open('/enterprise-sso');
    expect(await screen.findByText('No enterprise connectors yet')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add enterprise connector' })).toHaveLength(1);
  });
});

describe('creating a connector', () => {
  it('sends nothing without a provider and a name', async () => {
    const { user } = open('/enterprise-sso/create');
    const dialog = await screen.findByRole('dialog', { name: 'Add enterprise connector' });
    await user.click(within(dialog).getByRole('button', { name: 'Add connector' }));
    expect(errorOf('providerName')?.textContent).toBe('Choose a provider');
    expect(errorOf('connectorName')?.textContent).toBe('Required');
    expect(state.creates).toEqual([]);
  });

  it('creates the picked provider’s connector and opens its connection tab', async () => {
    const { user, router } = open('/enterprise-sso/create');
    const dialog = await screen.findByRole('dialog', { name: 'Add enterprise connector' });
    await user.click(within(dialog).getByRole('radio', { name: /SAML/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Connector name/ }), ' Globex ');
    await user.click(within(dialog).getByRole('button', { name: 'Add connector' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/enterprise-sso/new1/connection'));
    expect(state.creates).toEqual([{ providerName: 'SAML', connectorName: 'Globex' }]);
  });

  it('shows a name in use under the name field', async () => {
    state.createFailure = new ApiError(
      422,
      'An enterprise SSO connector with this name already exists.',
      'single_sign_on.duplicate_connector_name',
    );
    const { user } = open('/enterprise-sso/create');
    const dialog = await screen.findByRole('dialog', { name: 'Add enterprise connector' });
    await user.click(within(dialog).getByRole('radio', { name: /OIDC/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Connector name/ }), 'Acme OIDC');
    await user.click(within(dialog).getByRole('button', { name: 'Add connector' }));
    await waitFor(() =>
      expect(errorOf('connectorName')?.textContent).toBe('An enterprise SSO connector with this name already exists.'),
    );
  });
});

describe('the connection tab', () => {
  it('OIDC: shows the redirect URI to register and what was read from the IdP', async () => {
    open('/enterprise-sso/oidc1/connection');
    const ourSide = await screen.findByTestId('our-side');
    expect(ourSide.textContent).toContain('https://id.example.com/callback/sso/default/oidc1');
    expect(screen.getByTestId('idp-result').textContent).toContain('https://idp.acme.test/token');
  });

  it('OIDC: a bad issuer shows the rule and sends nothing; the kept secret goes back masked', async () => {
    const { user } = open('/enterprise-sso/oidc1/connection');
    const issuer = await screen.findByRole('textbox', { name: /Issuer/ });
    await user.clear(issuer);
    await user.type(issuer, 'not a url');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(errorOf('issuer')?.textContent).toBe('Enter a URL starting with https:// or http://');
    expect(state.patches).toEqual([]);

    // Back to the saved issuer: the secret is masked again and kept.
    await user.clear(issuer);
    await user.type(issuer, 'https://idp.acme.test');
    expect((screen.getByTestId('clientSecret') as HTMLInputElement).value).toBe('********');
    const clientId = screen.getByRole('textbox', { name: /Client ID/ });
    await user.clear(clientId);
    await user.type(clientId, 'gatehouse-2');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      config: { issuer: 'https://idp.acme.test', clientId: 'gatehouse-2', clientSecret: '********', scope: null },
    });
  });

  it('OIDC: a new issuer empties the masked secret, which must be typed again (issue 39, item 3)', async () => {
    const hint = 'Enter the secret again: a stored secret is never sent to a new host.';
    const { user } = open('/enterprise-sso/oidc1/connection');
    const issuer = await screen.findByRole('textbox', { name: /Issuer/ });
    const secret = screen.getByTestId('clientSecret') as HTMLInputElement;
    expect(screen.queryByTestId('clientSecret-note')).toBeNull();
    await user.clear(issuer);
    await user.type(issuer, 'https://login.attacker.test');
    expect(secret.value).toBe('');
    expect(screen.getByTestId('clientSecret-note').textContent).toBe(hint);

    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(errorOf('clientSecret')?.textContent).toBe('Required');
    expect(state.patches).toEqual([]);

    await user.type(secret, 'n3w-secret');
    expect(screen.queryByTestId('clientSecret-note')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      config: { issuer: 'https://login.attacker.test', clientId: 'gatehouse', clientSecret: 'n3w-secret', scope: null },
    });
  });

  it('OIDC: the server’s refusal of a secret kept for a new issuer is said in the console’s words', async () => {
    state.updateFailure = new ApiError(400, 'The request is invalid.', 'guard.invalid_input', [
      {
        path: 'config.clientSecret',
        message: 'Enter this secret again: issuer changed, and …',
        code: 'secret_required',
      },
    ]);
    const { user } = open('/enterprise-sso/oidc1/connection');
    await user.type(await screen.findByRole('textbox', { name: /Scope/ }), 'openid');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(errorOf('clientSecret')?.textContent).toBe(
        'Enter the secret again: a stored secret is never sent to a new host.',
      ),
    );
  });

  it('SAML by hand: every part is required, and an IdP that cannot be read is said so', async () => {
    state.detail = saml;
    const { user } = open('/enterprise-sso/saml1/connection');
    expect((await screen.findByTestId('our-side')).textContent).toContain(
      'https://id.example.com/enterprise-sso/default/saml1/saml-metadata',
    );
    await user.click(screen.getByRole('radio', { name: /Enter by hand/ }));
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(errorOf('entityId')?.textContent).toBe('Required');
    expect(errorOf('signInEndpoint')?.textContent).toBe('Required');
    expect(errorOf('x509Certificate')?.textContent).toBe('Required');
    expect(state.patches).toEqual([]);

    state.updateFailure = new ApiError(400, 'The certificate is not valid.', 'connector.invalid_certificate');
    await user.type(screen.getByRole('textbox', { name: /IdP entity ID/ }), 'urn:globex');
    await user.type(screen.getByRole('textbox', { name: /Sign-in URL/ }), 'https://sso.globex.test/saml');
    await user.type(screen.getByRole('textbox', { name: /Signing certificate/ }), 'MIIB');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not read the identity provider: The certificate is not valid.',
    );
  });
});

describe('the experience tab', () => {
  it('refuses a domain that is not one and sends the corrected domains lower-cased', async () => {
    const { user } = open('/enterprise-sso/oidc1/experience');
    const domain = await screen.findByRole('textbox', { name: /Domain 1/ });
    await user.clear(domain);
    await user.type(domain, 'not a domain');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(screen.getByTestId('domains.0-error').textContent).toBe('Enter a domain such as example.com');
    expect(state.patches).toEqual([]);

    await user.clear(domain);
    await user.type(domain, 'Acme.TEST');
    await user.type(screen.getByRole('textbox', { name: /Display name/ }), 'Acme');
    expect(screen.getByTestId('button-preview').textContent).toBe('Continue with Acme');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({ branding: { displayName: 'Acme' }, domains: ['acme.test'], syncProfile: false });
  });
});

describe('the IdP-initiated sign-in tab', () => {
  it('is a tab of SAML connectors only', async () => {
    open('/enterprise-sso/oidc1/connection');
    await screen.findByTestId('our-side');
    expect(screen.queryByRole('link', { name: 'IdP-initiated sign-in' })).toBeNull();
    state.detail = saml;
    open('/enterprise-sso/saml1/connection');
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: 'IdP-initiated sign-in' }).length).toBeGreaterThan(0),
    );
  });

  it('turns it on: the ACS URL and entity ID to give the IdP, checks before sending, then the PUT', async () => {
    state.detail = saml;
    const { user } = open('/enterprise-sso/saml1/idp-initiated-auth');
    const idpSide = await screen.findByTestId('idp-side');
    expect(idpSide.textContent).toContain('https://id.example.com/callback/sso/default/saml1');
    expect(idpSide.textContent).toContain('https://id.example.com/enterprise-sso/default/saml1');

    await user.click(screen.getByRole('switch', { name: /Accept unsolicited sign-ins/ }));
    // Auto-send cannot be turned on: every application uses PKCE.
    expect(
      (screen.getByRole('switch', { name: /starts the application's sign-in itself/ }) as HTMLInputElement).disabled,
    ).toBe(true);
    await user.type(
      screen.getByRole('textbox', { name: /IdP-initiated callback URI/ }),
      'http://portal.example.com/sso',
    );
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    await user.type(screen.getAllByRole('textbox', { name: /Parameter/ })[0] as HTMLElement, 'prompt');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(errorOf('defaultApplicationId')?.textContent).toBe('Required');
    expect(errorOf('clientIdpInitiatedAuthCallbackUri')?.textContent).toBe(
      'Enter an https:// URL (http:// only for localhost), without #',
    );
    expect(screen.getByTestId('authParameters.0.key-error').textContent).toBe(
      'Gatehouse or the application sets this parameter itself',
    );
    expect(state.idpPuts).toEqual([]);

    await user.selectOptions(screen.getByRole('combobox', { name: /Default application/ }), 'books');
    await user.selectOptions(
      screen.getByRole('combobox', { name: /Redirect URI/ }),
      'https://books.example.com/callback',
    );
    const callback = screen.getByRole('textbox', { name: /IdP-initiated callback URI/ });
    await user.clear(callback);
    await user.type(callback, 'https://books.example.com/sso-start');
    await user.type(screen.getByRole('textbox', { name: /Scopes/ }), 'openid profile');
    const name = screen.getAllByRole('textbox', { name: /Parameter/ })[0] as HTMLElement;
    await user.clear(name);
    await user.type(name, 'resource');
    await user.type(screen.getByRole('textbox', { name: /Value/ }), 'https://api.example.com');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.idpPuts).toHaveLength(1));
    expect(state.idpPuts[0]).toEqual({
      defaultApplicationId: 'books',
      redirectUri: 'https://books.example.com/callback',
      authParameters: { scope: 'openid profile', resource: 'https://api.example.com' },
      autoSendAuthorizationRequest: false,
      clientIdpInitiatedAuthCallbackUri: 'https://books.example.com/sso-start',
    });
  });

  it('shows the saved settings and turns them off with a DELETE', async () => {
    state.detail = saml;
    state.idpConfig = savedIdpConfig;
    const { user } = open('/enterprise-sso/saml1/idp-initiated-auth');
    const application = (await screen.findByRole('combobox', { name: /Default application/ })) as HTMLSelectElement;
    expect(application.value).toBe('portal');
    expect((screen.getByRole('combobox', { name: /Redirect URI/ }) as HTMLSelectElement).value).toBe(
      'https://portal.example.com/callback',
    );
    expect((screen.getByRole('textbox', { name: /Scopes/ }) as HTMLInputElement).value).toBe('openid profile email');
    expect((screen.getByRole('textbox', { name: /Value/ }) as HTMLInputElement).value).toBe('https://api.example.com');

    await user.click(screen.getByRole('switch', { name: /Accept unsolicited sign-ins/ }));
    expect(screen.queryByRole('combobox', { name: /Default application/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(state.idpDeletes).toBe(1));
    expect(state.idpPuts).toEqual([]);
  });

  it("puts the server's refusal on its field", async () => {
    state.detail = saml;
    state.idpConfig = savedIdpConfig;
    state.idpFailure = new ApiError(
      400,
      "This redirect URI is not one of the application's registered redirect URIs.",
      'single_sign_on.idp_initiated_authentication_redirect_uri_not_registered',
    );
    const { user } = open('/enterprise-sso/saml1/idp-initiated-auth');
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /Redirect URI/ }),
      'https://portal.example.com/cb2',
    );
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(errorOf('redirectUri')?.textContent).toBe(
        "This redirect URI is not one of the application's registered redirect URIs.",
      ),
    );

    state.idpFailure = new ApiError(400, 'The request is invalid.', 'guard.invalid_input', [
      { path: 'authParameters.resource', message: 'is set by Gatehouse or the application', code: 'custom' },
    ]);
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(screen.getByTestId('authParameters.0.key-error').textContent).toBe(
        'is set by Gatehouse or the application',
      ),
    );
  });
});
