import { z } from 'zod';
import { emailDomainSchema } from './organization.ts';
import { userIdentitySchema } from './user-input.ts';

/**
 * Enterprise SSO (spec §2.2 `enterprise-sso`, §3 "SSO connector"; reference `/sso-connectors`): a tenant's
 * connection to a company's identity provider. The provider names are the reference's, so clients written for it
 * create the same kinds. The generic `OIDC` and `SAML` take any standard IdP; the others are presets of them.
 */
export const ssoProviderTypes = ['OIDC', 'SAML'] as const;
export type SsoProviderType = (typeof ssoProviderTypes)[number];

export const ssoProviderNames = ['OIDC', 'SAML', 'AzureAD', 'AzureAdOidc', 'GoogleWorkspace', 'Okta'] as const;
export type SsoProviderName = (typeof ssoProviderNames)[number];

/** Which protocol each provider speaks. */
export const ssoProviderTypeOf: Record<SsoProviderName, SsoProviderType> = {
  OIDC: 'OIDC',
  SAML: 'SAML',
  AzureAD: 'SAML',
  AzureAdOidc: 'OIDC',
  GoogleWorkspace: 'OIDC',
  Okta: 'SAML',
};

/** GET /sso-connector-providers: a provider the tenant can connect, with its localised name and description. */
export const ssoConnectorProviderSchema = z.object({
  providerName: z.enum(ssoProviderNames),
  providerType: z.enum(ssoProviderTypes),
  name: z.string(),
  description: z.string(),
  logo: z.string(),
  logoDark: z.string().nullable(),
});
export type SsoConnectorProvider = z.infer<typeof ssoConnectorProviderSchema>;

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

/**
 * OIDC providers: the IdP's issuer (discovery at `{issuer}/.well-known/openid-configuration`), the client
 * registered there, and the scopes asked for (`openid` is always added). `trustUnverifiedEmail` lets an IdP that
 * sends no `email_verified` still link by email (the reference's switch; off by default).
 * Google Workspace's issuer is fixed (`https://accounts.google.com`), so it may be left out there.
 */
/**
 * An SSO connector's secret and where it goes (see `SecretBinding` of connector.ts): the OIDC client secret, sent to
 * the issuer's endpoints; the SAML fields that move the IdP count as destinations too.
 */
export const ssoSecretBinding = {
  secrets: ['clientSecret'],
  destinations: ['issuer', 'metadataUrl', 'signInEndpoint'],
} as const satisfies { secrets: readonly string[]; destinations: readonly string[] };

export const ssoOidcConfigSchema = z.strictObject({
  issuer: httpUrl.optional(),
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().trim().min(1).max(2048),
  scope: z.string().trim().max(1024).optional(),
  trustUnverifiedEmail: z.boolean().optional(),
});
export type SsoOidcConfig = z.infer<typeof ssoOidcConfigSchema>;

/** Which IdP attribute holds which user field (SAML); the defaults are the common claim URIs and plain names. */
export const ssoSamlAttributeMappingSchema = z.strictObject({
  id: z.string().trim().min(1).max(256).optional(),
  email: z.string().trim().min(1).max(256).optional(),
  name: z.string().trim().min(1).max(256).optional(),
});
export type SsoSamlAttributeMapping = z.infer<typeof ssoSamlAttributeMappingSchema>;

/**
 * SAML providers: the IdP's metadata, by URL or pasted XML, or its three parts by hand (entity id, sign-in
 * endpoint, signing certificate in PEM or bare base64). Saving needs one of the three ways complete only when the
 * connector is used; an incomplete config is kept as a draft (the console fills it in steps).
 */
export const ssoSamlConfigSchema = z.strictObject({
  metadataUrl: httpUrl.optional(),
  metadata: z.string().trim().max(200_000).optional(),
  entityId: z.string().trim().min(1).max(1024).optional(),
  signInEndpoint: httpUrl.optional(),
  x509Certificate: z.string().trim().max(20_000).optional(),
  attributeMapping: ssoSamlAttributeMappingSchema.optional(),
});
export type SsoSamlConfig = z.infer<typeof ssoSamlConfigSchema>;

/** The config schema of a provider (a partial config is a draft: see `ssoConnectorCreateSchema`). */
export function ssoConfigSchemaOf(providerName: SsoProviderName) {
  return ssoProviderTypeOf[providerName] === 'OIDC' ? ssoOidcConfigSchema : ssoSamlConfigSchema;
}

/** How the connector shows on the sign-in page: its button text and logos. */
export const ssoBrandingSchema = z.strictObject({
  displayName: z.string().trim().max(128).optional(),
  logo: httpUrl.optional(),
  darkLogo: httpUrl.optional(),
});
export type SsoBranding = z.infer<typeof ssoBrandingSchema>;

/** The email domains whose users sign in through this connector: lower-cased, no duplicates. */
export const ssoDomainsSchema = z
  .array(emailDomainSchema)
  .max(100)
  .transform((domains) => [...new Set(domains)]);

export const ssoConnectorNameSchema = z.string().trim().min(1).max(128);

/** What the IdP's metadata or discovery document said (reference `providerConfig`), when it could be read. */
export const ssoProviderConfigSchema = z
  .object({
    /** OIDC: the discovered endpoints. */
    issuer: z.string().optional(),
    authorizationEndpoint: z.string().optional(),
    tokenEndpoint: z.string().optional(),
    userinfoEndpoint: z.string().optional(),
    jwksUri: z.string().optional(),
    /** SAML: the IdP's entity id, sign-in endpoint and certificate, and our service-provider side. */
    entityId: z.string().optional(),
    signInEndpoint: z.string().optional(),
    x509Certificate: z.string().optional(),
    certificateExpiresAt: z.number().optional(),
    serviceProvider: z
      .object({ entityId: z.string(), assertionConsumerServiceUrl: z.string(), metadataUrl: z.string() })
      .optional(),
  })
  .passthrough();
export type SsoProviderConfig = z.infer<typeof ssoProviderConfigSchema>;

/** An SSO connector as the API answers it; confidential config values are masked (`********`). */
export const ssoConnectorSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  providerName: z.enum(ssoProviderNames),
  connectorName: z.string(),
  config: z.record(z.string(), z.unknown()),
  domains: z.array(z.string()),
  branding: ssoBrandingSchema,
  syncProfile: z.boolean(),
  enableTokenStorage: z.boolean(),
  createdAt: z.number(),
});
export type SsoConnector = z.infer<typeof ssoConnectorSchema>;

/** GET /sso-connectors and GET /sso-connectors/{id} (reference `SsoConnectorWithProviderConfig`). */
export const ssoConnectorWithProviderConfigSchema = ssoConnectorSchema.extend({
  providerType: z.enum(ssoProviderTypes),
  providerLogo: z.string(),
  providerLogoDark: z.string().nullable(),
  /** Absent while the config is incomplete or the IdP could not be read. */
  providerConfig: ssoProviderConfigSchema.optional(),
});
export type SsoConnectorWithProviderConfig = z.infer<typeof ssoConnectorWithProviderConfigSchema>;

export const ssoConnectorCreateSchema = z.strictObject({
  providerName: z.enum(ssoProviderNames),
  connectorName: ssoConnectorNameSchema,
  /** Checked against the provider's config schema by the server (`ssoConfigSchemaOf`); may be partial. */
  config: z.record(z.string(), z.unknown()).optional(),
  domains: ssoDomainsSchema.optional(),
  branding: ssoBrandingSchema.optional(),
  syncProfile: z.boolean().optional(),
  enableTokenStorage: z.boolean().optional(),
});
export type SsoConnectorCreate = z.infer<typeof ssoConnectorCreateSchema>;

export const ssoConnectorPatchSchema = z.strictObject({
  connectorName: ssoConnectorNameSchema.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  domains: ssoDomainsSchema.optional(),
  branding: ssoBrandingSchema.optional(),
  syncProfile: z.boolean().optional(),
  enableTokenStorage: z.boolean().optional(),
});
export type SsoConnectorPatch = z.infer<typeof ssoConnectorPatchSchema>;

/** A user's link to an enterprise IdP account (reference `UserSsoIdentity`). */
export const userSsoIdentitySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  userId: z.string(),
  ssoConnectorId: z.string(),
  issuer: z.string(),
  identityId: z.string(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type UserSsoIdentity = z.infer<typeof userSsoIdentitySchema>;

/**
 * GET /users/{userId}/sso-identities/{ssoConnectorId} (reference): the identity. The reference's `tokenSecret` (its
 * token storage) is never answered: Gatehouse stores no IdP tokens.
 */
export const userSsoIdentityAnswerSchema = z.object({ ssoIdentity: userSsoIdentitySchema });

/** GET /users/{userId}/all-identities (reference): social identities by target and enterprise SSO identities. */
export const userAllIdentitiesSchema = z.object({
  socialIdentities: z.array(z.object({ target: z.string(), identity: userIdentitySchema })),
  ssoIdentities: z.array(z.object({ ssoConnectorId: z.string(), ssoIdentity: userSsoIdentitySchema })),
});
export type UserAllIdentities = z.infer<typeof userAllIdentitiesSchema>;

/**
 * Bodies of `/organizations/{id}/jit/sso-connectors` (reference): any id-like text, repeats count once; an unknown id
 * is 422 `entity.relation_foreign_key_not_found`, not a 400.
 */
const ssoConnectorIdList = (min: number) => z.array(z.string().min(1).max(256)).min(min).max(100);
export const ssoConnectorIdsAssignSchema = z.strictObject({ ssoConnectorIds: ssoConnectorIdList(1) });
export const ssoConnectorIdsReplaceSchema = z.strictObject({ ssoConnectorIds: ssoConnectorIdList(0) });

// ——— IdP-initiated sign-in (reference `/sso-connectors/{id}/idp-initiated-auth-config`) ———

/**
 * The application types an IdP-initiated sign-in can land in. The reference's picker also offers SAML applications;
 * Gatehouse does not (they have no OIDC authorization request to start), and refuses them with
 * `single_sign_on.idp_initiated_authentication_invalid_application_type`.
 */
export const ssoIdpInitiatedApplicationTypes = ['Traditional', 'SPA'] as const;

/**
 * Authorization request parameters Gatehouse or the application sets itself, and the callback's own `ssoConnectorId`:
 * the admin's `authParameters` cannot set them (400 `guard.invalid_input`, path `authParameters.<name>`).
 */
export const ssoIdpInitiatedReservedParameters: readonly string[] = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'state',
  'nonce',
  'prompt',
  'code_challenge',
  'code_challenge_method',
  'request',
  'request_uri',
  'id_token_hint',
  'direct_sign_in',
  'ssoConnectorId',
];

/** How many extra authorization parameters a config may hold. */
export const SSO_AUTH_PARAMETERS_MAX = 20;
const authParameterNamePattern = /^[A-Za-z0-9_.-]{1,64}$/;

/** Why an extra authorization parameter's name is refused ('pattern' or 'reserved'), or undefined when it is fine. */
export function ssoAuthParameterProblem(name: string): 'pattern' | 'reserved' | undefined {
  if (!authParameterNamePattern.test(name)) return 'pattern';
  return ssoIdpInitiatedReservedParameters.includes(name) ? 'reserved' : undefined;
}

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The application's IdP-initiated callback (`clientIdpInitiatedAuthCallbackUri`): an absolute https URL, or http on
 * this machine (localhost, 127.0.0.1, [::1]) for development; no fragment, at most 2048 characters.
 */
export function isSsoClientCallbackUri(value: string): boolean {
  if (value.length > 2048 || value.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && localHosts.has(url.hostname));
}

export const ssoIdpInitiatedAuthConfigInputSchema = z
  .strictObject({
    /** An application of the tenant, of a type in {@link ssoIdpInitiatedApplicationTypes}, not third-party. */
    defaultApplicationId: z.string().trim().min(1).max(21),
    /** One of the application's registered redirect URIs; its sign-in must return there. */
    redirectUri: z.string().trim().min(1).max(2048).nullable().optional(),
    /**
     * Extra authorization parameters (`scope`…), names not reserved: added to the application's IdP-initiated callback
     * URI, for the application to put in the authorization request it starts.
     */
    authParameters: z.record(z.string(), z.string().max(1024)).optional(),
    /**
     * Gatehouse starting the authorization request itself. Refused (400
     * `single_sign_on.idp_initiated_authentication_auto_send_not_supported`): every authorization request needs PKCE,
     * whose verifier only the application that starts the request can hold.
     */
    autoSendAuthorizationRequest: z.boolean().optional(),
    /** Where the browser goes once the IdP's answer is checked, to start the application's own sign-in. */
    clientIdpInitiatedAuthCallbackUri: z
      .string()
      .trim()
      .refine(isSsoClientCallbackUri, 'must be an https URL (http only for localhost) without a fragment')
      .nullable()
      .optional(),
  })
  .superRefine((value, context) => {
    if (!value.autoSendAuthorizationRequest && !value.clientIdpInitiatedAuthCallbackUri) {
      context.addIssue({
        code: 'custom',
        path: ['clientIdpInitiatedAuthCallbackUri'],
        message: 'is required when autoSendAuthorizationRequest is false',
      });
    }
    const names = Object.keys(value.authParameters ?? {});
    if (names.length > SSO_AUTH_PARAMETERS_MAX) {
      context.addIssue({
        code: 'custom',
        path: ['authParameters'],
        message: `must have at most ${SSO_AUTH_PARAMETERS_MAX} parameters`,
      });
    }
    for (const name of names) {
      const problem = ssoAuthParameterProblem(name);
      if (problem) {
        context.addIssue({
          code: 'custom',
          path: ['authParameters', name],
          message:
            problem === 'reserved'
              ? 'is set by Gatehouse or the application and cannot be configured'
              : 'must be 1 to 64 letters, digits, dots, dashes or underscores',
        });
      }
    }
  });
export type SsoIdpInitiatedAuthConfigInput = z.infer<typeof ssoIdpInitiatedAuthConfigInputSchema>;

/** A connector's IdP-initiated sign-in settings, as the API answers them (the reference's row shape). */
export const ssoIdpInitiatedAuthConfigSchema = z.object({
  tenantId: z.string(),
  connectorId: z.string(),
  defaultApplicationId: z.string(),
  redirectUri: z.string().nullable(),
  authParameters: z.record(z.string(), z.string()),
  autoSendAuthorizationRequest: z.boolean(),
  clientIdpInitiatedAuthCallbackUri: z.string().nullable(),
  createdAt: z.number(),
});
export type SsoIdpInitiatedAuthConfig = z.infer<typeof ssoIdpInitiatedAuthConfigSchema>;
