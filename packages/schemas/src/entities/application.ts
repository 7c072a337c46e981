import { z } from 'zod';
import { idSchema } from '../ids.ts';
import { customDataSchema } from './me.ts';
import { idListSchema } from './role.ts';

/** Spec §3: the kinds of application. */
export const applicationTypes = ['Native', 'SPA', 'Traditional', 'MachineToMachine', 'Protected', 'SAML'] as const;
export type ApplicationType = (typeof applicationTypes)[number];

/** Spec §5: application name 1 to 256 characters. */
export const applicationNameSchema = z.string().trim().min(1).max(256);
export const applicationDescriptionSchema = z.string().max(2048);

export const MAX_URI_LENGTH = 2048;
/** Each list of URIs or origins an application holds. */
export const MAX_URIS_PER_LIST = 100;

function parseAbsoluteUri(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const isWebProtocol = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';
/** Schemes a browser would run or read locally instead of navigating to an app. */
const forbiddenSchemes = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:']);

/** Web applications redirect to http(s) pages; native ones to their own custom scheme (spec §5). */
export type RedirectUriKind = 'web' | 'native';
export const redirectUriKind = (type: ApplicationType): RedirectUriKind => (type === 'Native' ? 'native' : 'web');

/** Why a redirect URI is refused, as a code a form can translate. */
export type RedirectUriProblemCode =
  | 'too_long'
  | 'not_absolute'
  | 'fragment'
  | 'web_scheme'
  | 'native_scheme'
  | 'forbidden_scheme';

/**
 * Spec §5, the one redirect-URI rule of the product: web redirect URIs must be http(s), native
 * (mobile and desktop) redirect URIs must use a custom scheme; neither may carry a fragment
 * (RFC 6749 §3.1.2). Returns why `uri` is refused (a code and the API's English words), or
 * undefined when it is accepted.
 */
export function checkRedirectUri(
  uri: string,
  kind: RedirectUriKind,
): { code: RedirectUriProblemCode; message: string } | undefined {
  if (uri.length > MAX_URI_LENGTH) return { code: 'too_long', message: `must be at most ${MAX_URI_LENGTH} characters` };
  const url = parseAbsoluteUri(uri);
  if (!url) return { code: 'not_absolute', message: 'must be an absolute URI' };
  if (uri.includes('#')) return { code: 'fragment', message: 'must not contain a fragment' };
  if (kind === 'web') return isWebProtocol(url) ? undefined : { code: 'web_scheme', message: 'must use http or https' };
  if (isWebProtocol(url)) {
    return { code: 'native_scheme', message: 'must use a custom scheme (such as com.example.app:/callback)' };
  }
  if (forbiddenSchemes.has(url.protocol)) {
    return { code: 'forbidden_scheme', message: `must not use the ${url.protocol.slice(0, -1)} scheme` };
  }
  return undefined;
}

/** The API's words for why `uri` is refused, or undefined when it is accepted (see checkRedirectUri). */
export function redirectUriProblem(uri: string, kind: RedirectUriKind): string | undefined {
  return checkRedirectUri(uri, kind)?.message;
}

/** One redirect URI of an application of this kind; the console validates its inputs with it. */
export const redirectUriSchema = (kind: RedirectUriKind) =>
  z.string().superRefine((uri, ctx) => {
    const problem = checkRedirectUri(uri, kind);
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        message: problem.message,
        params: { rule: `redirect_uri.${kind}`, problem: problem.code },
      });
    }
  });

/** An absolute http(s) URL (logo, back-channel logout). */
export const webUrlSchema = z
  .string()
  .max(MAX_URI_LENGTH)
  .refine((value) => {
    const url = parseAbsoluteUri(value);
    return Boolean(url && isWebProtocol(url) && !value.includes('#'));
  }, 'must be an http or https URL without a fragment');

/** A web origin as browsers send it: scheme, host and optional port, no path (CORS). */
export const originSchema = z
  .string()
  .max(MAX_URI_LENGTH)
  .refine((value) => {
    const url = parseAbsoluteUri(value);
    return Boolean(url && isWebProtocol(url) && url.origin === value);
  }, 'must be an origin such as https://app.example.com (no path or trailing slash)');

/** Absolute URIs without a fragment; the redirect rule of the application's kind is checked separately. */
const uriList = z.array(z.string().max(MAX_URI_LENGTH)).max(MAX_URIS_PER_LIST);

/** OIDC client metadata as sent (create, or the keys a PATCH replaces). */
export const oidcClientMetadataInputSchema = z.strictObject({
  redirectUris: uriList.optional(),
  postLogoutRedirectUris: uriList.optional(),
  backchannelLogoutUri: webUrlSchema.nullable().optional(),
  logoUri: webUrlSchema.nullable().optional(),
});
export type OidcClientMetadataInput = z.infer<typeof oidcClientMetadataInputSchema>;

export const oidcClientMetadataSchema = z.object({
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  backchannelLogoutUri: z.string().nullable().optional(),
  logoUri: z.string().nullable().optional(),
});
export type OidcClientMetadata = z.infer<typeof oidcClientMetadataSchema>;

/** Spec §9: refresh tokens live 14 days by default; §5: 1 to 90 days. */
export const REFRESH_TOKEN_TTL_DAYS = { min: 1, max: 90, default: 14 } as const;
/** Spec §9: id tokens live one hour by default; we allow one minute to one day. */
export const ID_TOKEN_TTL_SECONDS = { min: 60, max: 86_400, default: 3600 } as const;

/** Spec §3 custom client metadata with the §5 ranges. Every key is optional; absent means the default. */
export const customClientMetadataSchema = z.strictObject({
  corsAllowedOrigins: z.array(originSchema).max(MAX_URIS_PER_LIST).optional(),
  idTokenTtl: z.number().int().min(ID_TOKEN_TTL_SECONDS.min).max(ID_TOKEN_TTL_SECONDS.max).optional(),
  refreshTokenTtl: z
    .number()
    .int()
    .min(REFRESH_TOKEN_TTL_DAYS.min * 86_400)
    .max(REFRESH_TOKEN_TTL_DAYS.max * 86_400)
    .optional(),
  refreshTokenTtlInDays: z.number().int().min(REFRESH_TOKEN_TTL_DAYS.min).max(REFRESH_TOKEN_TTL_DAYS.max).optional(),
  alwaysIssueRefreshToken: z.boolean().optional(),
  rotateRefreshToken: z.boolean().optional(),
});
export type CustomClientMetadata = z.infer<typeof customClientMetadataSchema>;

/**
 * The refresh-token lifetime in seconds an application's settings give. `refreshTokenTtlInDays` (the field the
 * console shows and edits) wins; `refreshTokenTtl` in seconds counts only when no days are set, the reference's order.
 * Undefined when neither is set (the provider's default then applies).
 */
export function refreshTokenLifetimeSeconds(
  custom: Pick<CustomClientMetadata, 'refreshTokenTtl' | 'refreshTokenTtlInDays'>,
): number | undefined {
  if (custom.refreshTokenTtlInDays !== undefined) return custom.refreshTokenTtlInDays * 86_400;
  return custom.refreshTokenTtl;
}

/** Free-form JSON kept with the application (spec §3 customData). */
export const applicationCustomDataSchema = z.record(z.string(), z.unknown());
/** Custom data as written: one JSON object of at most 64 KiB, as for users and organizations. */
export const applicationCustomDataInputSchema = customDataSchema;

/** Adds an issue for every redirect or post-logout redirect URI the application's type refuses. */
export function checkRedirectUris(
  type: ApplicationType,
  metadata: OidcClientMetadataInput | undefined,
  ctx: z.RefinementCtx,
): void {
  const kind = redirectUriKind(type);
  for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    metadata?.[field]?.forEach((uri, index) => {
      const problem = checkRedirectUri(uri, kind);
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          message: problem.message,
          path: ['oidcClientMetadata', field, index],
          params: { rule: `redirect_uri.${kind}`, problem: problem.code },
        });
      }
    });
  }
}

export const applicationSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(applicationTypes),
  oidcClientMetadata: oidcClientMetadataSchema,
  customClientMetadata: customClientMetadataSchema,
  customData: applicationCustomDataSchema,
  isThirdParty: z.boolean(),
  /**
   * The reference's protected-app settings (host, origin, page rules), null for any other type. Gatehouse's Protected
   * apps have none (they are confidential web apps, docs/areas/applications.md), so it is null for every application.
   */
  protectedAppMetadata: z.null(),
  createdAt: z.number().int(),
});
export type Application = z.infer<typeof applicationSchema>;

const applicationCreateFields = z.strictObject({
  name: applicationNameSchema,
  type: z.enum(applicationTypes),
  description: applicationDescriptionSchema.nullable().optional(),
  oidcClientMetadata: oidcClientMetadataInputSchema.optional(),
  customClientMetadata: customClientMetadataSchema.optional(),
  customData: applicationCustomDataInputSchema.optional(),
  isThirdParty: z.boolean().optional(),
});

/**
 * Types that can be third-party applications: web apps whose users sign in through a consent screen. Machine apps
 * have no users, native and protected apps are first-party by nature, SAML apps have their own trust model.
 */
export const thirdPartyApplicationTypes = ['Traditional', 'SPA'] as const satisfies readonly ApplicationType[];
export const canBeThirdParty = (type: ApplicationType): boolean =>
  thirdPartyApplicationTypes.some((allowed) => allowed === type);

/** POST /applications; the redirect URIs must suit the type (spec §5), and only some types can be third-party. */
export const applicationCreateSchema = applicationCreateFields.superRefine((value, ctx) => {
  checkRedirectUris(value.type, value.oidcClientMetadata, ctx);
  if (value.isThirdParty && !canBeThirdParty(value.type)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be false for ${value.type} applications (third-party: ${thirdPartyApplicationTypes.join(', ')})`,
      path: ['isThirdParty'],
    });
  }
});
export type ApplicationCreate = z.infer<typeof applicationCreateSchema>;

/** PATCH /applications/{id}: the type never changes; metadata objects are merged key by key. */
export const applicationPatchFields = z.strictObject({
  name: applicationNameSchema.optional(),
  description: applicationDescriptionSchema.nullable().optional(),
  oidcClientMetadata: oidcClientMetadataInputSchema.optional(),
  customClientMetadata: customClientMetadataSchema.optional(),
  customData: applicationCustomDataInputSchema.optional(),
});
export type ApplicationPatch = z.infer<typeof applicationPatchFields>;

/** The PATCH body for an application of `type`, with the redirect rule of that type. */
export const applicationPatchSchema = (type: ApplicationType) =>
  applicationPatchFields.superRefine((value, ctx) => checkRedirectUris(type, value.oidcClientMetadata, ctx));

// ---- Secrets ----------------------------------------------------------------------------------

/** The name of a named secret (application secrets, personal access tokens): 1 to 256 characters, trimmed. */
export const applicationSecretNameSchema = z.string().trim().min(1).max(256);

/** When a named secret expires: epoch milliseconds in the future; null or absent, never. */
export const secretExpiresAtSchema = z
  .number()
  .int()
  .positive()
  .nullable()
  .optional()
  .refine((value) => value == null || value > Date.now(), 'must be in the future');

/** A secret as listed: the value is masked; only creation and the audited reveal show it whole. */
export const applicationSecretSchema = z.object({
  applicationId: z.string(),
  name: z.string(),
  value: z.string(),
  createdAt: z.number().int(),
  /** Epoch milliseconds, or null for a secret that never expires. */
  expiresAt: z.number().int().nullable(),
});
export type ApplicationSecret = z.infer<typeof applicationSecretSchema>;

export const applicationSecretCreateSchema = z.strictObject({
  name: applicationSecretNameSchema,
  expiresAt: secretExpiresAtSchema,
});
export type ApplicationSecretCreate = z.infer<typeof applicationSecretCreateSchema>;

export const applicationSecretPatchSchema = z.strictObject({ name: applicationSecretNameSchema });

/** Shown in place of a secret's value: its first characters, then a fixed mask. */
export const maskSecret = (value: string) => `${value.slice(0, 4)}${'*'.repeat(12)}`;

// ---- Machine-to-machine roles -----------------------------------------------------------------

export const applicationRolesAssignSchema = z.strictObject({ roleIds: idListSchema(idSchema) });
/** PUT replaces the application's roles; an empty list removes them all. */
export const applicationRolesReplaceSchema = z.strictObject({
  roleIds: z
    .array(idSchema)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
});
/** POST answers the ids asked for and those it added (ids already held are left as they are), as the reference. */
export const applicationRolesAssignedSchema = z.object({
  roleIds: z.array(idSchema),
  addedRoleIds: z.array(idSchema),
});

// ---- SAML -------------------------------------------------------------------------------------

/** SAML 2.0 binding URNs (the reference's `BindingType` values, which the API answers with). */
export const SAML_BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const SAML_BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const samlBindings = [SAML_BINDING_POST, SAML_BINDING_REDIRECT] as const;
export type SamlBinding = (typeof samlBindings)[number];
/**
 * The short names accepted before the URNs (and still accepted as input). Stored rows may hold them; the API
 * answers with the URN.
 */
const samlBindingShortNames: Record<string, SamlBinding> = {
  'HTTP-POST': SAML_BINDING_POST,
  'HTTP-Redirect': SAML_BINDING_REDIRECT,
};
/** The URN of a binding given as a URN or a short name (unknown values pass unchanged). */
export const normalizeSamlBinding = (binding: string): string => samlBindingShortNames[binding] ?? binding;
/**
 * Bindings an assertion consumer service may use. The SAML 2.0 Web Browser SSO profile (§4.1.2) forbids sending a
 * response with HTTP-Redirect, so only HTTP-POST is (`application.saml.acs_url_binding_not_supported` otherwise).
 */
export const samlAcsBindings: readonly SamlBinding[] = [SAML_BINDING_POST];
export const samlNameIdFormats = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
] as const;
export type SamlNameIdFormat = (typeof samlNameIdFormats)[number];

/**
 * A PEM certificate. The console's SAML form asks for one; the API stores `encryption.certificate` as any text, as
 * the reference does (Gatehouse encrypts no assertion with it: it issues no SAML assertion yet).
 */
export const pemCertificatePattern =
  /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/;

/** Spec §5: when assertion encryption is on, encryptThenSign and certificate are required. */
export const samlEncryptionSchema = z
  .strictObject({
    encryptAssertion: z.boolean(),
    encryptThenSign: z.boolean().optional(),
    certificate: z.string().max(16_384).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.encryptAssertion) return;
    if (value.encryptThenSign === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required when encryptAssertion is on', path: ['encryptThenSign'] });
    }
    if (value.certificate === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required when encryptAssertion is on', path: ['certificate'] });
    }
  });
export type SamlEncryption = z.infer<typeof samlEncryptionSchema>;

/** A binding as sent: the URN, or the short name (`HTTP-POST`), read as its URN. */
const samlBindingInputSchema = z
  .enum([...samlBindings, ...(Object.keys(samlBindingShortNames) as ['HTTP-POST', 'HTTP-Redirect'])])
  .transform((binding) => normalizeSamlBinding(binding) as SamlBinding);

/** The assertion consumer service as sent; the binding defaults to HTTP-POST, as in the reference. */
export const samlAcsUrlInputSchema = z.strictObject({
  binding: samlBindingInputSchema.default(SAML_BINDING_POST),
  url: webUrlSchema,
});
export const samlAcsUrlSchema = z.object({ binding: z.enum(samlBindings), url: z.string() });

/** SAML attribute name per user claim (e.g. `email` → `http://schemas…/emailaddress`). */
export const samlAttributeMappingSchema = z.record(z.string().min(1).max(128), z.string().min(1).max(1024));

const samlConfigFields = {
  entityId: z.string().trim().min(1).max(1024).nullable().optional(),
  acsUrl: samlAcsUrlInputSchema.nullable().optional(),
  attributeMapping: samlAttributeMappingSchema.optional(),
  nameIdFormat: z.enum(samlNameIdFormats).optional(),
  encryption: samlEncryptionSchema.nullable().optional(),
};

export const samlApplicationSchema = z.object({
  ...applicationSchema.omit({ oidcClientMetadata: true, customClientMetadata: true, isThirdParty: true }).shape,
  entityId: z.string().nullable(),
  acsUrl: samlAcsUrlSchema.nullable(),
  attributeMapping: samlAttributeMappingSchema,
  nameIdFormat: z.enum(samlNameIdFormats),
  encryption: samlEncryptionSchema.nullable(),
});
export type SamlApplication = z.infer<typeof samlApplicationSchema>;

export const samlApplicationCreateSchema = z.strictObject({
  name: applicationNameSchema,
  description: applicationDescriptionSchema.nullable().optional(),
  customData: applicationCustomDataInputSchema.optional(),
  ...samlConfigFields,
});
export type SamlApplicationCreate = z.infer<typeof samlApplicationCreateSchema>;

export const samlApplicationPatchSchema = z.strictObject({
  name: applicationNameSchema.optional(),
  description: applicationDescriptionSchema.nullable().optional(),
  customData: applicationCustomDataInputSchema.optional(),
  ...samlConfigFields,
});
export type SamlApplicationPatch = z.infer<typeof samlApplicationPatchSchema>;

/**
 * How long a new SAML signing certificate is valid (reference `lifeSpanInYears`, any whole number of years from 1);
 * 3 years unless asked. The cap only keeps the expiry encodable: an X.509 validity date has a four-digit year
 * (RFC 5280 GeneralizedTime), and 1000 years is far beyond any real certificate.
 */
export const SAML_CERTIFICATE_LIFESPAN_YEARS = { min: 1, max: 1000, default: 3 } as const;

/** A SAML application's signing certificate as the API shows it: never the private key. */
export const samlCertificateSchema = z.object({
  id: z.string(),
  certificate: z.string(),
  fingerprints: z.object({ sha256: z.object({ formatted: z.string(), unformatted: z.string() }) }),
  active: z.boolean(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type SamlCertificate = z.infer<typeof samlCertificateSchema>;

export const samlCertificateCreateSchema = z.strictObject({
  lifeSpanInYears: z
    .number()
    .int()
    .min(SAML_CERTIFICATE_LIFESPAN_YEARS.min)
    .max(SAML_CERTIFICATE_LIFESPAN_YEARS.max)
    .optional(),
});
export type SamlCertificateCreate = z.infer<typeof samlCertificateCreateSchema>;

/** Activating one certificate deactivates the others; the active one cannot simply be switched off. */
export const samlCertificatePatchSchema = z.strictObject({ active: z.literal(true) });
