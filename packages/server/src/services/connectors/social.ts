import type { ConnectorFactory, ConnectorFormItem } from '@gatehouse/schemas';
import * as client from 'openid-client';
import type { fetch as undiciFetch } from 'undici';
import { excerpt, isNetworkFailure, networkFailure } from '../outbound.ts';
import { ConnectorError, text } from './types.ts';

/**
 * Social connectors (issue 21): generic OpenID Connect (discovery, PKCE, state and nonce, the ID token validated by
 * openid-client) and generic OAuth 2.0 (endpoints given, the profile read from a user-info endpoint), and presets on
 * top of them for Google, GitLab and Microsoft (OIDC) and GitHub and Discord (OAuth 2.0). Every request goes through
 * the outbound policy (the tenant chose the addresses).
 */

/** Who the provider says the user is. */
export type SocialProfile = {
  id: string;
  email: string | undefined;
  /** The provider vouches for the address (OIDC `email_verified`, or a preset's rule). */
  emailVerified: boolean;
  name: string | undefined;
  avatar: string | undefined;
  /** The provider's claims or user-info answer, kept on the identity's details. */
  raw: Record<string, unknown>;
};

export type SocialContext = { fetch: typeof undiciFetch; timeoutMs: number };
export type AuthorizationRequest = { redirectUri: string; state: string; nonce: string; codeChallenge: string };
export type CallbackCheck = { callbackUrl: URL; codeVerifier: string; state: string; nonce: string };

export type SocialModule = {
  factory: ConnectorFactory & { type: 'Social' };
  authorizationUrl: (
    config: Record<string, unknown>,
    request: AuthorizationRequest,
    ctx: SocialContext,
  ) => Promise<URL>;
  profile: (config: Record<string, unknown>, check: CallbackCheck, ctx: SocialContext) => Promise<SocialProfile>;
};

const credentials: ConnectorFormItem[] = [
  { key: 'clientId', label: 'Client ID', type: 'Text', required: true },
  { key: 'clientSecret', label: 'Client secret', type: 'Text', required: true, isConfidential: true },
];
const scopeItem = (defaultValue: string): ConnectorFormItem => ({
  key: 'scope',
  label: 'Scope',
  type: 'Text',
  required: false,
  defaultValue,
  description: `Space-separated; empty for "${defaultValue}".`,
});

const options = (ctx: SocialContext) => ({
  [client.customFetch]: ((url: string, init: client.CustomFetchOptions) =>
    ctx.fetch(url, { ...init, signal: AbortSignal.timeout(ctx.timeoutMs) } as never)) as client.CustomFetch,
  // The tenant chose the provider's address: plain http is its choice too (a provider on its own network).
  execute: [client.allowInsecureRequests],
});

/**
 * Discovered provider configurations, kept for 5 minutes per issuer and client. Social OIDC connectors and enterprise
 * SSO's OIDC connectors (services/sso/idp.ts) both discover through here.
 */
const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

export function discover(issuer: string, clientId: string, clientSecret: string, ctx: SocialContext) {
  const key = JSON.stringify([issuer, clientId, clientSecret]);
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < 5 * 60_000) return cached.config;
  const config = client
    .discovery(new URL(issuer), clientId, clientSecret, client.ClientSecretBasic(clientSecret), options(ctx))
    .then((found) => {
      // HTTP Basic is OIDC's default; a provider that only takes the secret in the body gets it there.
      const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
      if (!methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post')) return found;
      const post = new client.Configuration(
        found.serverMetadata(),
        clientId,
        clientSecret,
        client.ClientSecretPost(clientSecret),
      );
      post[client.customFetch] = options(ctx)[client.customFetch];
      client.allowInsecureRequests(post);
      return post;
    })
    .catch((error) => {
      discovered.delete(key);
      throw new ConnectorError('connector.invalid_config', `discovery of ${issuer} failed: ${describe(error)}`);
    });
  discovered.set(key, { at: Date.now(), config });
  return config;
}

/**
 * A failure in one line for the admin or the user: the network's cause when no answer came, else the library's
 * message with the provider's OAuth `error` code. Cut to an excerpt: the provider wrote part of it.
 */
function describe(error: unknown): string {
  if (isNetworkFailure(error)) return networkFailure(error);
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail =
      cause && typeof cause === 'object' && 'error' in cause ? ` (${String((cause as { error: unknown }).error)})` : '';
    return excerpt(`${error.message}${detail}`);
  }
  return excerpt(String(error));
}

/** openid-client's failures as spec §8 codes. */
function codeExchangeError(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const message = describe(error);
  if (/invalid_grant|invalid_request|code/i.test(message) && !/id_token|JWT|nonce|signature/i.test(message)) {
    return new ConnectorError('connector.social_auth_code_invalid', message);
  }
  if (/id_token|JWT|nonce|signature|claim/i.test(message))
    return new ConnectorError('connector.social_invalid_id_token', message);
  if (/access_denied/i.test(message)) return new ConnectorError('connector.authorization_failed', message);
  return new ConnectorError('connector.general', message);
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** A generic OpenID Connect connector, or a preset of one (`issuerOf` fixes or builds the issuer). */
function oidcModule(
  factory: Omit<SocialModule['factory'], 'formItems'>,
  extraItems: ConnectorFormItem[],
  issuerOf: (config: Record<string, unknown>) => string,
  defaultScope = 'openid profile email',
): SocialModule {
  const scopeOf = (config: Record<string, unknown>) => text(config, 'scope') || defaultScope;
  return {
    factory: { ...factory, formItems: [...extraItems, ...credentials, scopeItem(defaultScope)] },
    async authorizationUrl(config, request, ctx) {
      const provider = await discover(issuerOf(config), text(config, 'clientId'), text(config, 'clientSecret'), ctx);
      return client.buildAuthorizationUrl(provider, {
        redirect_uri: request.redirectUri,
        scope: scopeOf(config),
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async profile(config, check, ctx) {
      const provider = await discover(issuerOf(config), text(config, 'clientId'), text(config, 'clientSecret'), ctx);
      try {
        const tokens = await client.authorizationCodeGrant(provider, check.callbackUrl, {
          pkceCodeVerifier: check.codeVerifier,
          expectedState: check.state,
          expectedNonce: check.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new ConnectorError('connector.social_invalid_id_token', 'no ID token');
        let info: Record<string, unknown> = { ...claims };
        if (!str(claims.email) && provider.serverMetadata().userinfo_endpoint) {
          info = { ...info, ...(await client.fetchUserInfo(provider, tokens.access_token, claims.sub)) };
        }
        return {
          id: claims.sub,
          email: str(info.email),
          emailVerified: info.email_verified === true,
          name: str(info.name) ?? str(info.preferred_username),
          avatar: str(info.picture),
          raw: info,
        };
      } catch (error) {
        throw codeExchangeError(error);
      }
    },
  };
}

type ProfileMap = { id: string; email: string; name: string; avatar: string; emailVerified?: string };

/** A generic OAuth 2.0 connector, or a preset of one (fixed endpoints and profile fields). */
function oauth2Module(
  factory: Omit<SocialModule['factory'], 'formItems'>,
  extraItems: ConnectorFormItem[],
  endpoints: (config: Record<string, unknown>) => { authorization: string; token: string; userInfo: string },
  defaultScope: string,
  profileMap: (config: Record<string, unknown>) => ProfileMap,
  /** Extra steps after the user-info answer (GitHub's email list). */
  complete?: (profile: SocialProfile, provider: client.Configuration, accessToken: string) => Promise<SocialProfile>,
  /** How a preset's provider documents taking the secret; the generic connector's config says it. */
  presetAuthMethod?: 'client_secret_post' | 'client_secret_basic',
): SocialModule {
  const providerOf = (config: Record<string, unknown>, ctx: SocialContext) => {
    const urls = endpoints(config);
    const secret = text(config, 'clientSecret');
    const provider = new client.Configuration(
      {
        issuer: new URL(urls.authorization).origin,
        authorization_endpoint: urls.authorization,
        token_endpoint: urls.token,
        userinfo_endpoint: urls.userInfo,
      },
      text(config, 'clientId'),
      secret,
      (presetAuthMethod ?? text(config, 'tokenEndpointAuthMethod')) === 'client_secret_post'
        ? client.ClientSecretPost(secret)
        : client.ClientSecretBasic(secret),
    );
    provider[client.customFetch] = options(ctx)[client.customFetch];
    client.allowInsecureRequests(provider);
    return provider;
  };
  return {
    factory: { ...factory, formItems: [...extraItems, ...credentials, scopeItem(defaultScope)] },
    async authorizationUrl(config, request, ctx) {
      return client.buildAuthorizationUrl(providerOf(config, ctx), {
        redirect_uri: request.redirectUri,
        scope: text(config, 'scope') || defaultScope,
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async profile(config, check, ctx) {
      const provider = providerOf(config, ctx);
      try {
        const tokens = await client.authorizationCodeGrant(provider, check.callbackUrl, {
          pkceCodeVerifier: check.codeVerifier,
          expectedState: check.state,
        });
        const response = await client.fetchProtectedResource(
          provider,
          tokens.access_token,
          new URL(endpoints(config).userInfo),
          'GET',
        );
        if (!response.ok) {
          throw new ConnectorError('connector.social_invalid_access_token', `user info: HTTP ${response.status}`);
        }
        const info = (await response.json()) as Record<string, unknown>;
        const map = profileMap(config);
        const id = info[map.id];
        if (typeof id !== 'string' && typeof id !== 'number') {
          throw new ConnectorError('connector.invalid_response', `user info has no "${map.id}"`);
        }
        const profile: SocialProfile = {
          id: String(id),
          email: str(info[map.email]),
          emailVerified: map.emailVerified ? info[map.emailVerified] === true : false,
          name: str(info[map.name]),
          avatar: str(info[map.avatar]),
          raw: info,
        };
        return complete ? await complete(profile, provider, tokens.access_token) : profile;
      } catch (error) {
        throw codeExchangeError(error);
      }
    },
  };
}

const logo = (name: string) => `/console/connectors/${name}.svg`;
const base = (id: string, target: string, name: string, description: string, isStandard = false) => ({
  id,
  type: 'Social' as const,
  platform: 'Universal' as const,
  target,
  name: { en: name },
  description: { en: description },
  logo: logo(target),
  logoDark: null,
  isStandard,
  isDemo: false,
});
const readme = (steps: string) => `${steps}\n\nThe redirect URI to register is shown on the connector's page.`;

export const oidcSocial = oidcModule(
  {
    ...base('oidc', 'oidc', 'OpenID Connect', 'Sign in with any OpenID Connect provider.', true),
    readme: readme('1. Register a web application at the provider.\n2. Enter its issuer, client ID and client secret.'),
  },
  [{ key: 'issuer', label: 'Issuer', type: 'Url', required: true, placeholder: 'https://id.example.com' }],
  (config) => text(config, 'issuer'),
);

export const oauth2Social = oauth2Module(
  {
    ...base(
      'oauth2',
      'oauth2',
      'OAuth 2.0',
      'Sign in with any OAuth 2.0 provider that has a user-info endpoint.',
      true,
    ),
    readme: readme(
      '1. Register an application at the provider.\n2. Enter its endpoints, client ID and secret, and which user-info fields hold the id, email, name and picture.',
    ),
  },
  [
    { key: 'authorizationEndpoint', label: 'Authorization endpoint', type: 'Url', required: true },
    { key: 'tokenEndpoint', label: 'Token endpoint', type: 'Url', required: true },
    { key: 'userInfoEndpoint', label: 'User info endpoint', type: 'Url', required: true },
    {
      key: 'tokenEndpointAuthMethod',
      label: 'How the client secret is sent',
      type: 'Select',
      required: false,
      defaultValue: 'client_secret_basic',
      selectItems: [
        { value: 'client_secret_basic', title: 'HTTP Basic (client_secret_basic)' },
        { value: 'client_secret_post', title: 'In the body (client_secret_post)' },
      ],
    },
    {
      key: 'profileMap',
      label: 'Profile fields',
      type: 'Json',
      required: false,
      description: 'Which user-info fields hold id, email, name, avatar and emailVerified, e.g. {"id": "sub"}.',
    },
  ],
  (config) => ({
    authorization: text(config, 'authorizationEndpoint'),
    token: text(config, 'tokenEndpoint'),
    userInfo: text(config, 'userInfoEndpoint'),
  }),
  'openid profile email',
  (config) => ({
    id: 'id',
    email: 'email',
    name: 'name',
    avatar: 'picture',
    ...((config.profileMap as Partial<ProfileMap> | undefined) ?? {}),
  }),
);

export const googleSocial = oidcModule(
  {
    ...base('google-universal', 'google', 'Google', 'Sign in with a Google account.'),
    readme: readme(
      '1. In Google Cloud, create an OAuth client of type Web application.\n2. Enter its client ID and secret.',
    ),
  },
  [],
  () => 'https://accounts.google.com',
);

export const gitlabSocial = oidcModule(
  {
    ...base('gitlab', 'gitlab', 'GitLab', 'Sign in with a GitLab account (gitlab.com or your own instance).'),
    readme: readme(
      '1. In GitLab, add an application with the scopes openid, profile and email.\n2. Enter its ID and secret.',
    ),
  },
  [
    {
      key: 'baseUrl',
      label: 'GitLab URL',
      type: 'Url',
      required: false,
      defaultValue: 'https://gitlab.com',
      description: 'Leave empty for https://gitlab.com.',
    },
  ],
  (config) => (text(config, 'baseUrl') || 'https://gitlab.com').replace(/\/+$/, ''),
);

export const microsoftSocial = oidcModule(
  {
    ...base('azuread', 'microsoft', 'Microsoft', 'Sign in with a Microsoft Entra ID (work or school) account.'),
    readme: readme(
      '1. In Microsoft Entra ID, register an application with a web redirect URI.\n2. Enter the directory (tenant) ID, the application ID and a client secret.',
    ),
  },
  [{ key: 'directoryId', label: 'Directory (tenant) ID', type: 'Text', required: true }],
  (config) => `https://login.microsoftonline.com/${encodeURIComponent(text(config, 'directoryId'))}/v2.0`,
);

export const githubSocial = oauth2Module(
  {
    ...base('github-universal', 'github', 'GitHub', 'Sign in with a GitHub account.'),
    readme: readme('1. In GitHub, create an OAuth App.\n2. Enter its client ID and a client secret.'),
  },
  [],
  () => ({
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    userInfo: 'https://api.github.com/user',
  }),
  'read:user user:email',
  () => ({ id: 'id', email: 'email', name: 'name', avatar: 'avatar_url' }),
  // GitHub's profile email is the public one, unverified as far as we know: the primary verified one is in /user/emails.
  async (profile, provider, accessToken) => {
    const response = await client.fetchProtectedResource(
      provider,
      accessToken,
      new URL('https://api.github.com/user/emails'),
      'GET',
    );
    if (!response.ok) return profile;
    const emails = (await response.json()) as { email: string; primary: boolean; verified: boolean }[];
    const primary = emails.find((entry) => entry.primary && entry.verified);
    return primary ? { ...profile, email: primary.email, emailVerified: true } : profile;
  },
  'client_secret_post',
);

export const discordSocial = oauth2Module(
  {
    ...base('discord', 'discord', 'Discord', 'Sign in with a Discord account.'),
    readme: readme(
      '1. In the Discord developer portal, create an application and add a redirect.\n2. Enter its client ID and secret.',
    ),
  },
  [],
  () => ({
    authorization: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    userInfo: 'https://discord.com/api/users/@me',
  }),
  'identify email',
  () => ({ id: 'id', email: 'email', name: 'global_name', avatar: 'avatar', emailVerified: 'verified' }),
  undefined,
  'client_secret_post',
);

export const socialModules: readonly SocialModule[] = [
  oidcSocial,
  oauth2Social,
  googleSocial,
  githubSocial,
  microsoftSocial,
  gitlabSocial,
  discordSocial,
];
