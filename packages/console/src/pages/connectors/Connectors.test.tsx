// @vitest-environment happy-dom
import type { Connector, ConnectorCreate, ConnectorFactory, ConnectorPatch } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Navigate, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import type { ConnectorTest } from '../../api/connectors.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/connectors.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { CreateConnectorModal } from './create/CreateConnectorModal.tsx';
import { GuidePage } from './create/GuidePage.tsx';
import { ConnectionTab } from './detail/ConnectionTab.tsx';
import { ConnectorDetailsPage } from './detail/ConnectorDetailsPage.tsx';
import { ExperienceTab } from './detail/ExperienceTab.tsx';
import { PasswordlessTab } from './PasswordlessTab.tsx';
import { SocialTab } from './SocialTab.tsx';

// What the pages send is under test, not the API (the server tests cover it): writes are recorded here.

/** A factory with one form item of every type, so the one generic form draws them all. */
const factory: ConnectorFactory = {
  id: 'every-kind',
  type: 'Email',
  platform: null,
  target: 'every-kind',
  name: { en: 'Every kind' },
  description: { en: 'A factory with every kind of field.' },
  logo: '/console/connectors/http.svg',
  logoDark: null,
  readme: '1. Get a key.\n2. Enter it.\n3. Send a test email.',
  isStandard: true,
  isDemo: false,
  formItems: [
    { key: 'host', label: 'Host', type: 'Text', required: true, placeholder: 'smtp.example.com' },
    { key: 'notes', label: 'Notes', type: 'MultilineText', required: false },
    { key: 'endpoint', label: 'Endpoint', type: 'Url', required: true },
    { key: 'port', label: 'Port', type: 'Number', required: true, defaultValue: 587 },
    { key: 'secure', label: 'Secure', type: 'Switch', required: false },
    {
      key: 'region',
      label: 'Region',
      type: 'Select',
      required: true,
      defaultValue: 'eu',
      selectItems: [
        { value: 'eu', title: 'Europe' },
        { value: 'us', title: 'United States' },
      ],
    },
    { key: 'extra', label: 'Extra', type: 'Json', required: false },
    { key: 'password', label: 'Password', type: 'Text', required: false, isConfidential: true },
    { key: 'templates', label: 'Templates', type: 'Templates', required: false },
  ],
};

const saved: Connector = {
  id: 'conn1',
  connectorId: factory.id,
  config: {
    host: 'smtp.example.com',
    endpoint: 'https://mail.example.com/send',
    port: 587,
    secure: false,
    region: 'eu',
    password: '********',
    templates: [{ usageType: 'SignIn', subject: 'Your code', content: 'Code {{code}}', type: 'text/plain' }],
  },
  metadata: {},
  syncProfile: false,
  enableTokenStorage: false,
  createdAt: Date.UTC(2026, 0, 2),
  type: 'Email',
  platform: null,
  target: 'every-kind',
  name: { en: 'Every kind' },
  logo: factory.logo,
  logoDark: null,
  formItems: factory.formItems,
};

const state: {
  factories: ConnectorFactory[];
  connectors: Connector[];
  detail: Connector;
  creates: ConnectorCreate[];
  patches: ConnectorPatch[];
  tests: ConnectorTest[];
  testFailure?: ApiError;
  updateFailure?: ApiError;
} = { factories: [], connectors: [], detail: saved, creates: [], patches: [], tests: [] };

// The public URL comes from the console configuration (the admin tenant's issuer).
vi.mock('../../api/tenant-endpoints.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/tenant-endpoints.ts')>()),
  useConsoleConfig: () => ({ data: { issuer: 'https://id.example.com/oidc/admin' } }),
}));

vi.mock('../../api/connectors.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/connectors.ts')>()),
  useConnectorFactories: () => ({ isPending: false, isError: false, data: state.factories }),
  useConnectors: () => ({ isPending: false, isError: false, data: state.connectors }),
  useConnector: () => ({ isPending: false, data: state.detail, error: null, refetch: async () => undefined }),
  useCreateConnector: () => ({
    mutateAsync: async (input: ConnectorCreate) => {
      state.creates.push(input);
      return state.detail;
    },
  }),
  useUpdateConnector: () => ({
    mutateAsync: async (patch: ConnectorPatch) => {
      if (state.updateFailure) throw state.updateFailure;
      state.patches.push(patch);
      return { ...saved, ...patch, config: { ...saved.config, ...patch.config } };
    },
  }),
  useDeleteConnector: () => ({ mutateAsync: async () => undefined }),
  useTestConnector: () => ({
    isPending: false,
    mutateAsync: async (test: ConnectorTest) => {
      state.tests.push(test);
      if (state.testFailure) throw state.testFailure;
    },
  }),
}));

function open(path: string) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'connectors', strings);
  const router = createMemoryRouter(
    [
      // As in routes.ts: the tab is a static path, the chooser its child.
      {
        path: '/connectors/social',
        element: <SocialTab />,
        children: [{ path: 'create/:createType', element: <CreateConnectorModal /> }],
      },
      {
        path: '/connectors/passwordless',
        element: <PasswordlessTab />,
        children: [{ path: 'create/:createType', element: <CreateConnectorModal /> }],
      },
      { path: '/connectors/:tab/guide/:factoryId', element: <GuidePage /> },
      {
        path: '/connectors/:tab/:connectorId',
        element: <ConnectorDetailsPage />,
        children: [
          { index: true, element: <Navigate to="connection" replace /> },
          { path: 'connection', element: <ConnectionTab /> },
          { path: 'experience', element: <ExperienceTab /> },
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
  state.factories = [factory];
  state.connectors = [];
  state.detail = saved;
  state.creates = [];
  state.patches = [];
  state.tests = [];
  state.testFailure = undefined;
  state.updateFailure = undefined;
});

const field = (name: string) => screen.getByTestId(name);
const errorOf = (key: string) => screen.queryByTestId(`config.${key}-error`);

describe('the generic connector form', () => {
  it('draws every item type from the factory’s form items, with the factory’s labels', async () => {
    open('/connectors/passwordless/guide/every-kind');
    expect(await screen.findByRole('heading', { name: 'Set up Every kind' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((step) => step.textContent)).toEqual([
      'Get a key.',
      'Enter it.',
      'Send a test email.',
    ]);

    const host = screen.getByRole('textbox', { name: /^Host/ }) as HTMLInputElement;
    expect(host.placeholder).toBe('smtp.example.com');
    expect(host.getAttribute('aria-required')).toBe('true');
    expect(field('config.notes').tagName).toBe('TEXTAREA');
    expect((screen.getByRole('textbox', { name: /^Endpoint/ }) as HTMLInputElement).type).toBe('url');
    expect((screen.getByRole('spinbutton', { name: /^Port/ }) as HTMLInputElement).value).toBe('587');
    expect(screen.getByRole('switch', { name: /^Secure/ })).toBeTruthy();
    const region = screen.getByRole('combobox', { name: /^Region/ }) as HTMLSelectElement;
    expect(region.value).toBe('eu');
    expect(within(region).getByRole('option', { name: 'United States' })).toBeTruthy();
    expect(await screen.findByRole('textbox', { name: /^Extra/ })).toBeTruthy();
    expect((field('config.password') as HTMLInputElement).type).toBe('password');
    expect(screen.getByRole('group', { name: 'Templates' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a template' })).toBeTruthy();
  });

  it('refuses a missing required field and a bad URL beside the fields and sends nothing', async () => {
    const { user } = open('/connectors/passwordless/guide/every-kind');
    await screen.findByRole('heading', { name: 'Set up Every kind' });
    await user.type(screen.getByRole('textbox', { name: /^Endpoint/ }), 'ftp://mail.example.com');
    await user.click(screen.getByRole('button', { name: 'Create connector' }));

    await waitFor(() => expect(errorOf('host')?.textContent).toBe('This field is required.'));
    expect(errorOf('endpoint')?.textContent).toBe('Enter an absolute http(s) URL.');
    expect(state.creates).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /^Host/ }), 'smtp.example.com');
    await user.clear(screen.getByRole('textbox', { name: /^Endpoint/ }));
    await user.type(screen.getByRole('textbox', { name: /^Endpoint/ }), 'https://mail.example.com/send');
    await user.click(screen.getByRole('button', { name: 'Create connector' }));
    await waitFor(() => expect(state.creates).toHaveLength(1));
    expect(state.creates[0]).toEqual({
      connectorId: 'every-kind',
      config: {
        host: 'smtp.example.com',
        endpoint: 'https://mail.example.com/send',
        port: 587,
        secure: false,
        region: 'eu',
      },
    });
  });

  it('checks a template row: usage and content are required', async () => {
    const { user } = open('/connectors/passwordless/guide/every-kind');
    await screen.findByRole('heading', { name: 'Set up Every kind' });
    await user.type(screen.getByRole('textbox', { name: /^Host/ }), 'smtp.example.com');
    await user.type(screen.getByRole('textbox', { name: /^Endpoint/ }), 'https://mail.example.com/send');
    await user.click(screen.getByRole('button', { name: 'Add a template' }));
    await user.click(screen.getByRole('button', { name: 'Create connector' }));
    await waitFor(() =>
      expect(errorOf('templates.0.usageType')?.textContent).toBe('Choose what this template is for.'),
    );
    expect(errorOf('templates.0.content')?.textContent).toBe("Enter the template's content.");
    expect(state.creates).toEqual([]);
  });

  it('shows a stored secret masked and sends it back masked when untouched', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    const password = (await screen.findByTestId('config.password')) as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.value).toBe('********');
    await user.click(screen.getByRole('button', { name: 'Show value' }));
    expect(password.type).toBe('text');

    // Fields that do not decide where the secret goes leave it masked.
    await user.type(field('config.notes'), 'Office relay');
    await user.click(screen.getByRole('switch', { name: /^Secure/ }));
    expect(password.value).toBe('********');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.config).toMatchObject({
      host: 'smtp.example.com',
      notes: 'Office relay',
      secure: true,
      password: '********',
    });
    expect(state.patches[0]?.config?.templates).toEqual([
      { usageType: 'SignIn', subject: 'Your code', content: 'Code {{code}}', type: 'text/plain' },
    ]);
  });

  it('sends a newly typed secret instead of the mask', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    const password = await screen.findByTestId('config.password');
    await user.clear(password);
    await user.type(password, 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.config?.password).toBe('n3w-secret');
  });
});

describe('a masked secret and a new host (issue 39, item 3)', () => {
  const hint = 'Enter the secret again: a stored secret is never sent to a new host.';
  const noteOf = (key: string) => screen.queryByTestId(`config.${key}-note`);

  it('empties the secret when the host changes, requires it again and sends the one typed', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    const password = (await screen.findByTestId('config.password')) as HTMLInputElement;
    expect(noteOf('password')).toBeNull();
    const host = screen.getByRole('textbox', { name: /^Host/ });
    await user.clear(host);
    await user.type(host, 'smtp.attacker.test');
    expect(password.value).toBe('');
    expect(noteOf('password')?.textContent).toBe(hint);
    expect(password.getAttribute('aria-describedby')?.split(' ')).toContain(noteOf('password')?.id);

    // The factory makes the password optional, but the stored one is not sent along: it must be typed again.
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(errorOf('password')?.textContent).toBe('This field is required.'));
    expect(state.patches).toEqual([]);
    // Nor is it sent with a test.
    await user.click(screen.getByRole('button', { name: 'Send a test' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(password, 'n3w-secret');
    expect(noteOf('password')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.config).toMatchObject({ host: 'smtp.attacker.test', password: 'n3w-secret' });
  });

  it('does the same for an endpoint and a port, and gives the mask back when they are put back', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    const password = (await screen.findByTestId('config.password')) as HTMLInputElement;
    const endpoint = screen.getByRole('textbox', { name: /^Endpoint/ });
    await user.type(endpoint, '/v2');
    expect(password.value).toBe('');
    expect(noteOf('password')?.textContent).toBe(hint);
    await user.type(endpoint, '{Backspace}{Backspace}{Backspace}');
    expect(password.value).toBe('********');
    expect(noteOf('password')).toBeNull();

    const port = screen.getByRole('spinbutton', { name: /^Port/ });
    await user.clear(port);
    await user.type(port, '2525');
    expect(password.value).toBe('');
    expect(noteOf('password')?.textContent).toBe(hint);
  });

  it('sends a test with the secret typed again, never with the mask', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    const host = await screen.findByRole('textbox', { name: /^Host/ });
    await user.clear(host);
    await user.type(host, 'smtp2.example.com');
    await user.type(screen.getByTestId('config.password'), 'typed-again');
    await user.click(screen.getByRole('button', { name: 'Send a test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test message' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Email address/ }), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(state.tests).toHaveLength(1));
    expect(state.tests[0]?.config).toMatchObject({ host: 'smtp2.example.com', password: 'typed-again' });
  });

  it('says the server’s refusal of a secret kept for a new host in the console’s words', async () => {
    state.updateFailure = new ApiError(400, 'The config is not valid.', 'connector.invalid_config_guard', [
      { path: 'password', message: 'Enter this secret again: host changed, and …', code: 'secret_required' },
    ]);
    const { user } = open('/connectors/passwordless/conn1/connection');
    await user.type(await screen.findByTestId('config.notes'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(errorOf('password')?.textContent).toBe(hint));
  });
});

describe('a refusal of the server', () => {
  it('puts connector.invalid_config_guard’s fields beside the fields', async () => {
    state.updateFailure = new ApiError(400, 'The config is not valid.', 'connector.invalid_config_guard', [
      { path: 'host', message: 'The server does not like this host.', code: 'custom' },
    ]);
    const { user } = open('/connectors/passwordless/conn1/connection');
    const host = await screen.findByRole('textbox', { name: /^Host/ });
    await user.type(host, 'x');
    await user.type(screen.getByTestId('config.password'), 'typed-again');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(errorOf('host')?.textContent).toBe('The server does not like this host.'));
    expect(document.activeElement).toBe(host);
  });
});

describe('the test send', () => {
  it('sends the form’s current config and shows the server’s message and the provider’s detail', async () => {
    state.testFailure = new ApiError(400, 'The provider refused the request.', 'connector.invalid_response', {
      detail: 'HTTP 500: mailbox on fire',
    });
    const { user } = open('/connectors/passwordless/conn1/connection');
    const notes = await screen.findByTestId('config.notes');
    await user.type(notes, 'unsaved');
    await user.click(screen.getByRole('button', { name: 'Send a test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test message' });

    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByTestId('test-recipient-error').textContent).toBe('Enter an email address.');
    expect(state.tests).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /^Email address/ }), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The test message was not sent: The provider refused the request.');
    expect(alert.textContent).toContain('HTTP 500: mailbox on fire');
    expect(state.tests[0]).toMatchObject({
      email: 'ada@example.com',
      config: { notes: 'unsaved', password: '********' },
    });
  });

  it('says when the message was sent', async () => {
    const { user } = open('/connectors/passwordless/conn1/connection');
    await user.click(await screen.findByRole('button', { name: 'Send a test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test message' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Email address/ }), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByTestId('test-outcome')).textContent).toBe(
      'Test message sent to ada@example.com.',
    );
    // Said as a success (issue 40, item 14: it was grey text), and focus stays in the dialog (item 4).
    expect(within(dialog).getByRole('status').textContent).toBe('Test message sent to ada@example.com.');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
});

describe('the experience tab', () => {
  it('saves the English display name of a sender, which has no profile sync (issue 40, item 13)', async () => {
    const { user } = open('/connectors/passwordless/conn1/experience');
    await user.type(await screen.findByRole('textbox', { name: 'Name in English' }), 'Company mail');
    expect(screen.queryByRole('switch', { name: /Profile sync/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({ metadata: { name: { en: 'Company mail' } } });
  });
});

const oidc: ConnectorFactory = {
  ...factory,
  id: 'oidc',
  type: 'Social',
  platform: 'Universal',
  target: 'oidc',
  name: { en: 'OpenID Connect' },
  description: { en: 'Sign in with any OpenID Connect provider.' },
  readme: '1. Register a web application at the provider.\n2. Enter its issuer, client ID and client secret.',
  formItems: [
    { key: 'issuer', label: 'Issuer', type: 'Url', required: true },
    { key: 'clientId', label: 'Client ID', type: 'Text', required: true },
  ],
};

const socialConnector = (id: string, target: string, name: string, createdAt: number): Connector => ({
  ...saved,
  id,
  connectorId: 'oidc',
  type: 'Social',
  platform: 'Universal',
  target,
  name: { en: 'OpenID Connect' },
  metadata: { name: { en: name } },
  config: { issuer: 'https://id.example.com', clientId: 'client' },
  formItems: oidc.formItems,
  createdAt,
});

describe('the social tab', () => {
  it('says there are no social connectors yet and offers to add one from the social factories', async () => {
    state.factories = [factory, oidc];
    const { router } = open('/connectors/social');
    const empty = await screen.findByTestId('social-empty');
    expect(
      within(empty).getByText(
        'No social connector is set up yet. Add one to let users sign in with an account they already have elsewhere.',
      ),
    ).toBeTruthy();
    // The empty state's action is the one add link (issue 26).
    const add = within(empty).getByRole('link', { name: 'Add social connector' });
    expect(screen.getAllByRole('link', { name: 'Add social connector' })).toHaveLength(1);
    expect(add.getAttribute('href')).toBe('/connectors/social/create/social');
    await userEvent.setup().click(add);
    expect(router.state.location.pathname).toBe('/connectors/social/create/social');
    const chooser = await screen.findByRole('dialog', { name: 'Choose a social connector' });
    expect(
      within(chooser)
        .getByRole('link', { name: /OpenID Connect/ })
        .getAttribute('href'),
    ).toBe('/connectors/social/guide/oidc');
    expect(within(chooser).queryByRole('link', { name: /Every kind/ }), 'email factories are not offered').toBeNull();
    expect(within(chooser).queryByRole('note'), 'nothing is replaced').toBeNull();
  });

  it('lists the social connectors only: logo, name, target and created, each opening its page', async () => {
    state.connectors = [
      saved,
      socialConnector('oidc', 'oidc', 'Company SSO', Date.UTC(2026, 1, 3)),
      socialConnector('google', 'google', 'Google', Date.UTC(2026, 1, 4)),
    ];
    open('/connectors/social');
    const list = await screen.findByRole('list', { name: 'Social connectors' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('Company SSO');
    expect(rows[0]?.textContent).toContain('Target: oidc');
    expect(rows[0]?.textContent).toContain('Created Feb 3, 2026');
    expect(rows[0]?.querySelector('img')?.getAttribute('src')).toBe(saved.logo);
    expect(within(list).getByRole('link', { name: 'Company SSO' }).getAttribute('href')).toBe(
      '/connectors/social/oidc/connection',
    );
    expect(within(list).getByRole('link', { name: 'Open Google' }).getAttribute('href')).toBe(
      '/connectors/social/google/connection',
    );
    expect(screen.queryByText('Every kind')).toBeNull();
  });
});

describe('a social connector', () => {
  it('shows the redirect URI before creating, with the id it is created with, and has no test send', async () => {
    state.factories = [oidc];
    state.connectors = [socialConnector('oidc', 'oidc', 'Company SSO', Date.UTC(2026, 1, 3))];
    state.detail = socialConnector('oidc-2', 'oidc-2', 'OpenID Connect', Date.UTC(2026, 1, 5));
    const { user, router } = open('/connectors/social/guide/oidc');
    const redirect = await screen.findByTestId('redirect-uri');
    expect(within(redirect).getByRole('code').textContent).toBe(
      'https://id.example.com/callback/social/default/oidc-2',
    );
    expect(redirect.textContent).toContain('Register this redirect URI at the provider');
    expect(within(redirect).getByRole('button', { name: 'Copy the redirect URI' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a test' })).toBeNull();
    expect(screen.queryByRole('note'), 'social connectors add up: nothing is replaced').toBeNull();

    await user.type(screen.getByTestId('config.issuer'), 'https://accounts.example.org');
    await user.type(screen.getByTestId('config.clientId'), 'gatehouse');
    await user.click(screen.getByRole('button', { name: 'Create connector' }));
    await waitFor(() => expect(state.creates).toHaveLength(1));
    // 'oidc' is taken, and so is its target: the second one gets its own of both.
    expect(state.creates[0]).toEqual({
      connectorId: 'oidc',
      id: 'oidc-2',
      config: { issuer: 'https://accounts.example.org', clientId: 'gatehouse' },
      metadata: { target: 'oidc-2' },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/connectors/social/oidc-2/connection'));
  });

  it('keeps the factory’s target and id for the first of its kind', async () => {
    state.factories = [oidc];
    const { user } = open('/connectors/social/guide/oidc');
    expect(within(await screen.findByTestId('redirect-uri')).getByRole('code').textContent).toBe(
      'https://id.example.com/callback/social/default/oidc',
    );
    await user.type(screen.getByTestId('config.issuer'), 'https://accounts.example.org');
    await user.type(screen.getByTestId('config.clientId'), 'gatehouse');
    await user.click(screen.getByRole('button', { name: 'Create connector' }));
    await waitFor(() => expect(state.creates).toHaveLength(1));
    expect(state.creates[0]).toMatchObject({ connectorId: 'oidc', id: 'oidc' });
    expect(state.creates[0]?.metadata).toBeUndefined();
  });

  it('shows the redirect URI on its connection tab, without a test send', async () => {
    state.detail = socialConnector('google', 'google', 'Google', Date.UTC(2026, 1, 4));
    open('/connectors/social/google/connection');
    expect(within(await screen.findByTestId('redirect-uri')).getByRole('code').textContent).toBe(
      'https://id.example.com/callback/social/default/google',
    );
    expect(screen.getByTestId('config.issuer')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a test' })).toBeNull();
  });

  it('shows its own logo in the page header, or its factory’s, as decoration (issue 26)', async () => {
    state.detail = socialConnector('google', 'google', 'Google', Date.UTC(2026, 1, 4));
    open('/connectors/social/google/connection');
    const header = (await screen.findByRole('heading', { level: 1, name: 'Google' })).closest('header');
    const logo = header?.querySelector('img');
    expect(logo?.getAttribute('src')).toBe(saved.logo);
    expect(logo?.getAttribute('alt')).toBe('');
    cleanup();
    state.detail = { ...state.detail, metadata: { ...state.detail.metadata, logo: 'https://cdn.example.com/g.svg' } };
    open('/connectors/social/google/connection');
    const custom = (await screen.findByRole('heading', { level: 1, name: 'Google' })).closest('header');
    expect(custom?.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/g.svg');
  });
});

/** An email or SMS provider as the server lists it: its logo is one of the console's files (public/connectors). */
const provider = (id: string, type: 'Email' | 'Sms', name: string, logoFile: string): ConnectorFactory => ({
  ...factory,
  id,
  type,
  target: id,
  name: { en: name },
  description: { en: `Send with ${name}.` },
  logo: `/console/connectors/${logoFile}.svg`,
});
const emailProviders = [
  provider('smtp', 'Email', 'SMTP', 'smtp'),
  provider('sendgrid', 'Email', 'SendGrid', 'sendgrid'),
  provider('postmark', 'Email', 'Postmark', 'postmark'),
  provider('mailgun', 'Email', 'Mailgun', 'mailgun'),
  provider('http-email', 'Email', 'HTTP email', 'http'),
];
const smsProviders = [provider('twilio', 'Sms', 'Twilio', 'twilio'), provider('http-sms', 'Sms', 'HTTP SMS', 'http')];
/** The console's logo files (public/connectors, served under /console/connectors): names only, never loaded. */
const logoFiles = new Set(
  Object.keys(import.meta.glob('../../../public/connectors/*.svg')).map((path) =>
    path.replace('../../../public/', '/console/'),
  ),
);
const isLogoFile = (src: string | null | undefined) => logoFiles.has(src ?? '');

describe('the passwordless tab: email and SMS providers with their logos (issue 40, item 13)', () => {
  it('shows every provider of the chooser with its logo, beside its name and description', async () => {
    state.factories = [...emailProviders, ...smsProviders, oidc];
    for (const [createType, title, providers] of [
      ['email', 'Choose an email connector', emailProviders],
      ['sms', 'Choose an SMS connector', smsProviders],
    ] as const) {
      open(`/connectors/passwordless/create/${createType}`);
      const chooser = await screen.findByRole('dialog', { name: title });
      const cards = within(chooser).getAllByRole('link');
      expect(cards.map((card) => card.textContent)).toEqual(
        providers.map((entry) => `${entry.name.en}${entry.description.en}`),
      );
      for (const [index, card] of cards.entries()) {
        const logo = card.querySelector('img');
        expect(logo?.getAttribute('src'), `${providers[index]?.id}'s logo`).toBe(providers[index]?.logo);
        // Decoration: the name beside it says what it is, so it is not read out twice.
        expect(logo?.getAttribute('alt')).toBe('');
        expect(isLogoFile(logo?.getAttribute('src')), `${logo?.getAttribute('src')} is a file`).toBe(true);
      }
      cleanup();
    }
  });

  it('shows the email and the SMS connector set up with their provider’s logo on their cards', async () => {
    const [smtp, , , mailgun] = emailProviders;
    const [twilio] = smsProviders;
    state.connectors = [
      {
        ...saved,
        id: 'mail1',
        connectorId: 'mailgun',
        target: 'mailgun',
        name: { en: 'Mailgun' },
        logo: mailgun?.logo ?? '',
      },
      {
        ...saved,
        id: 'sms1',
        type: 'Sms',
        connectorId: 'twilio',
        target: 'twilio',
        name: { en: 'Twilio' },
        logo: twilio?.logo ?? '',
      },
    ];
    state.factories = [smtp, mailgun, twilio].filter((entry) => entry !== undefined);
    open('/connectors/passwordless');
    for (const [testId, name, logo] of [
      ['email-connector', 'Mailgun', mailgun?.logo],
      ['sms-connector', 'Twilio', twilio?.logo],
    ] as const) {
      const card = await screen.findByTestId(testId);
      expect(within(card).getByRole('link', { name }).getAttribute('href')).toMatch(/^\/connectors\/passwordless\//);
      const image = card.querySelector('img');
      expect(image?.getAttribute('src')).toBe(logo);
      expect(image?.getAttribute('alt')).toBe('');
      expect(isLogoFile(image?.getAttribute('src')), `${name}'s logo is a file`).toBe(true);
    }
  });
});
