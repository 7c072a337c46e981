import {
  type CustomClientMetadata,
  customClientMetadataSchema,
  ID_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_DAYS,
  refreshTokenLifetimeSeconds,
} from '@gatehouse/schemas';
import type { AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';

/**
 * An application's token settings (spec §3 customClientMetadata) travel on the provider's client as extra client
 * metadata under these names; the provider's policy hooks below read them back.
 */
export const clientPolicyProperties = [
  'id_token_ttl',
  'refresh_token_ttl',
  'always_issue_refresh_token',
  'rotate_refresh_token',
  'cors_allowed_origins',
] as const;

const DAY_SECONDS = 86_400;

/** The extra client metadata for an application's custom client metadata; defaults are left to the hooks. */
export function clientPolicyMetadata(stored: Record<string, unknown>): AdapterPayload {
  // Stored values passed the same schema on write; a row from an older version falls back to the defaults.
  const parsed = customClientMetadataSchema.safeParse(stored);
  const custom: CustomClientMetadata = parsed.success ? parsed.data : {};
  const refreshTtl = refreshTokenLifetimeSeconds(custom);
  return {
    ...(custom.idTokenTtl === undefined ? {} : { id_token_ttl: custom.idTokenTtl }),
    ...(refreshTtl === undefined ? {} : { refresh_token_ttl: refreshTtl }),
    ...(custom.alwaysIssueRefreshToken === undefined
      ? {}
      : { always_issue_refresh_token: custom.alwaysIssueRefreshToken }),
    ...(custom.rotateRefreshToken === undefined ? {} : { rotate_refresh_token: custom.rotateRefreshToken }),
    ...(custom.corsAllowedOrigins === undefined ? {} : { cors_allowed_origins: custom.corsAllowedOrigins }),
  };
}

type ProviderClient = NonNullable<KoaContextWithOIDC['oidc']['client']>;

function policyOf(client: ProviderClient | undefined) {
  const metadata = (client?.metadata() ?? {}) as Partial<Record<(typeof clientPolicyProperties)[number], unknown>>;
  return {
    idTokenTtl: typeof metadata.id_token_ttl === 'number' ? metadata.id_token_ttl : ID_TOKEN_TTL_SECONDS.default,
    refreshTokenTtl:
      typeof metadata.refresh_token_ttl === 'number'
        ? metadata.refresh_token_ttl
        : REFRESH_TOKEN_TTL_DAYS.default * DAY_SECONDS,
    alwaysIssueRefreshToken: metadata.always_issue_refresh_token === true,
    // Spec §9: rotation is on unless the application turns it off.
    rotateRefreshToken: metadata.rotate_refresh_token !== false,
    corsAllowedOrigins: Array.isArray(metadata.cors_allowed_origins) ? metadata.cors_allowed_origins : [],
  };
}

/** The provider settings that apply each application's token policy. */
export const clientPolicy = {
  extraClientMetadata: { properties: [...clientPolicyProperties] },
  ttl: {
    IdToken: (_ctx, _token, client) => policyOf(client).idTokenTtl,
    // With rotation each new refresh token gets the full lifetime again: a sliding window of inactivity.
    RefreshToken: (_ctx, _token, client) => policyOf(client).refreshTokenTtl,
  },
  // offline_access asks for a refresh token; an application may also get one without asking (spec §3).
  issueRefreshToken: async (_ctx, client, code) =>
    client.grantTypeAllowed('refresh_token') &&
    (code.scopes.has('offline_access') || policyOf(client).alwaysIssueRefreshToken),
  rotateRefreshToken: (ctx) => policyOf(ctx.oidc.client).rotateRefreshToken,
  // The provider's endpoints answer browsers from the application's allowed origins, and public clients also from
  // the origins of their redirect URIs (where their code runs).
  clientBasedCORS: (ctx, origin, client) => {
    if (origin === 'null') return false;
    if (policyOf(client).corsAllowedOrigins.includes(origin)) return true;
    if (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') {
      return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
    }
    return false;
  },
} satisfies Pick<
  Configuration,
  'extraClientMetadata' | 'issueRefreshToken' | 'rotateRefreshToken' | 'clientBasedCORS'
> & { ttl: Pick<NonNullable<Configuration['ttl']>, 'IdToken' | 'RefreshToken'> };
