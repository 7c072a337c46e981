import {
  emailDomainSchema,
  isSsoClientCallbackUri,
  MASKED_SECRET,
  type SsoConnectorPatch,
  type SsoConnectorWithProviderConfig,
  type SsoIdpInitiatedAuthConfig,
  type SsoIdpInitiatedAuthConfigInput,
  type SsoProviderName,
  ssoAuthParameterProblem,
  ssoBrandingSchema,
  ssoConnectorNameSchema,
  ssoIdpInitiatedAuthConfigInputSchema,
  ssoOidcConfigSchema,
  ssoSamlAttributeMappingSchema,
  ssoSamlConfigSchema,
  ssoSecretBinding,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { KeyValueRow } from '../../components/form/KeyValueRows.tsx';
import type { SecretBinding } from '../../components/form/masked-secrets.ts';
import type { IssueWording } from '../../components/form/schema-resolver.ts';
import type { TFunction } from '../../i18n/runtime.ts';

/**
 * The forms of the enterprise SSO area. Every rule is the shared schemas' (`sso-connector.ts`), checked in the form
 * before anything is sent; the messages are the console's, chosen by the rule a field broke (`messageKey`).
 */

/** Google Workspace's issuer is fixed (`https://accounts.google.com`), so its form has no issuer field. */
export const hasIssuerField = (providerName: SsoProviderName): boolean => providerName !== 'GoogleWorkspace';

/** Rule names the schemas' refinements carry; the resolver turns them into translated messages. */
export type Rule =
  | 'required'
  | 'url'
  | 'too_long'
  | 'domain'
  | 'callback_url'
  | 'parameter_name'
  | 'parameter_reserved'
  | 'parameter_duplicate'
  | 'organization';

const blank = (text: string) => text.trim() === '';
const fits = (check: z.ZodType, text: string) => check.safeParse(text.trim()).success;

/** A required text checked by a shared schema: blank is 'required', anything it refuses is `rule`. */
export const requiredBy = (check: z.ZodType, rule: Rule) =>
  z.string().superRefine((text, context) => {
    if (blank(text)) context.addIssue({ code: 'custom', message: 'required' });
    else if (!fits(check, text)) context.addIssue({ code: 'custom', message: rule });
  });
/** The same for an optional text: blank is fine. */
const optionalBy = (check: z.ZodType, rule: Rule) =>
  z.string().refine((text) => blank(text) || fits(check, text), rule);

// ——— create ———

export const createFormSchema = z.object({
  providerName: z.string().min(1, 'provider'),
  connectorName: requiredBy(ssoConnectorNameSchema, 'too_long'),
});
export type CreateForm = z.input<typeof createFormSchema>;

// ——— connection: OIDC ———

export type OidcForm = { issuer: string; clientId: string; clientSecret: string; scope: string };

export function oidcFormSchema(providerName: SsoProviderName) {
  const shape = ssoOidcConfigSchema.shape;
  return z.object({
    issuer: hasIssuerField(providerName) ? requiredBy(shape.issuer.unwrap(), 'url') : z.string(),
    clientId: requiredBy(shape.clientId, 'too_long'),
    // The mask stands for the stored secret: sending it back keeps it.
    clientSecret: requiredBy(shape.clientSecret, 'too_long'),
    scope: optionalBy(shape.scope.unwrap(), 'too_long'),
  });
}

/**
 * Where the client secret goes (issue 39, item 3): the shared rule of the server (`ssoSecretBinding`); of its
 * destinations the OIDC form has the issuer.
 */
export const oidcSecretBinding: SecretBinding = ssoSecretBinding;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function toOidcForm(config: Record<string, unknown>): OidcForm {
  return {
    issuer: text(config.issuer),
    clientId: text(config.clientId),
    clientSecret: text(config.clientSecret),
    scope: text(config.scope),
  };
}

/**
 * The PATCH's config. The server merges config keys into the stored ones (a key sent replaces, `null` removes, the
 * mask keeps the stored secret), so a cleared scope is sent as `null`; keys the form does not show are left alone.
 */
export function oidcConfigOf(values: OidcForm, providerName: SsoProviderName): Record<string, unknown> {
  return {
    ...(hasIssuerField(providerName) ? { issuer: values.issuer.trim() } : {}),
    clientId: values.clientId.trim(),
    clientSecret: values.clientSecret === MASKED_SECRET ? MASKED_SECRET : values.clientSecret.trim(),
    scope: blank(values.scope) ? null : values.scope.trim(),
  };
}

// ——— connection: SAML ———

/** How the IdP's side is given: its metadata by URL, its metadata XML pasted, or its three parts by hand. */
export const samlSources = ['url', 'xml', 'manual'] as const;
export type SamlSource = (typeof samlSources)[number];

export type SamlForm = {
  source: SamlSource;
  metadataUrl: string;
  metadata: string;
  entityId: string;
  signInEndpoint: string;
  x509Certificate: string;
  attributeMapping: { id: string; email: string; name: string };
};

export const attributeKeys = ['id', 'email', 'name'] as const;

export function toSamlForm(config: Record<string, unknown>): SamlForm {
  const mapping = (config.attributeMapping ?? {}) as Record<string, unknown>;
  const source: SamlSource = text(config.metadataUrl)
    ? 'url'
    : text(config.metadata)
      ? 'xml'
      : text(config.entityId) || text(config.signInEndpoint) || text(config.x509Certificate)
        ? 'manual'
        : 'url';
  return {
    source,
    metadataUrl: text(config.metadataUrl),
    metadata: text(config.metadata),
    entityId: text(config.entityId),
    signInEndpoint: text(config.signInEndpoint),
    x509Certificate: text(config.x509Certificate),
    attributeMapping: { id: text(mapping.id), email: text(mapping.email), name: text(mapping.name) },
  };
}

const samlShape = ssoSamlConfigSchema.shape;
const mappingShape = ssoSamlAttributeMappingSchema.shape;

/** Only the chosen source's fields are checked (and sent); the attribute names are optional. */
export const samlFormSchema = z
  .object({
    source: z.enum(samlSources),
    metadataUrl: z.string(),
    metadata: z.string(),
    entityId: z.string(),
    signInEndpoint: z.string(),
    x509Certificate: z.string(),
    attributeMapping: z.object({
      id: optionalBy(mappingShape.id.unwrap(), 'too_long'),
      email: optionalBy(mappingShape.email.unwrap(), 'too_long'),
      name: optionalBy(mappingShape.name.unwrap(), 'too_long'),
    }),
  })
  .superRefine((values, context) => {
    const check = (field: keyof SamlForm, schema: z.ZodType, rule: Rule) => {
      const value = values[field] as string;
      if (blank(value)) context.addIssue({ code: 'custom', message: 'required', path: [field] });
      else if (!fits(schema, value)) context.addIssue({ code: 'custom', message: rule, path: [field] });
    };
    if (values.source === 'url') check('metadataUrl', samlShape.metadataUrl.unwrap(), 'url');
    if (values.source === 'xml') check('metadata', samlShape.metadata.unwrap(), 'too_long');
    if (values.source === 'manual') {
      check('entityId', samlShape.entityId.unwrap(), 'too_long');
      check('signInEndpoint', samlShape.signInEndpoint.unwrap(), 'url');
      check('x509Certificate', samlShape.x509Certificate.unwrap(), 'too_long');
    }
  });

/**
 * The PATCH's config: the chosen source's fields, and `null` for the other sources' (the server merges config keys,
 * and reads pasted XML before a URL before the fields by hand, so a source left behind must go); the attribute names
 * given, or `null` when none is.
 */
export function samlConfigOf(values: SamlForm): Record<string, unknown> {
  const mapping = Object.fromEntries(
    attributeKeys.flatMap((key) => {
      const value = values.attributeMapping[key].trim();
      return value ? [[key, value]] : [];
    }),
  );
  const when = (source: SamlSource, value: string) => (values.source === source ? value.trim() : null);
  return {
    metadataUrl: when('url', values.metadataUrl),
    metadata: when('xml', values.metadata),
    entityId: when('manual', values.entityId),
    signInEndpoint: when('manual', values.signInEndpoint),
    x509Certificate: when('manual', values.x509Certificate),
    attributeMapping: Object.keys(mapping).length ? mapping : null,
  };
}

/** A refusal's API path (`config.clientId`) → the connection form's field. */
export function connectionFieldOf(apiPath: string): string | undefined {
  const [head, key, sub] = apiPath.split('.');
  if (head !== 'config' || !key) return undefined;
  if (key === 'attributeMapping') return sub ? `attributeMapping.${sub}` : undefined;
  return ['issuer', 'clientId', 'clientSecret', 'scope', 'metadataUrl', 'metadata', 'entityId', 'signInEndpoint']
    .concat('x509Certificate')
    .includes(key)
    ? key
    : undefined;
}

// ——— experience ———

export type ExperienceForm = {
  displayName: string;
  logo: string;
  darkLogo: string;
  domains: string[];
  syncProfile: boolean;
};

export function toExperienceForm(connector: SsoConnectorWithProviderConfig): ExperienceForm {
  return {
    displayName: connector.branding.displayName ?? '',
    logo: connector.branding.logo ?? '',
    darkLogo: connector.branding.darkLogo ?? '',
    domains: connector.domains.length ? [...connector.domains] : [''],
    syncProfile: connector.syncProfile,
  };
}

const brandingShape = ssoBrandingSchema.shape;

export const experienceFormSchema = z.object({
  displayName: optionalBy(brandingShape.displayName.unwrap(), 'too_long'),
  logo: optionalBy(brandingShape.logo.unwrap(), 'url'),
  darkLogo: optionalBy(brandingShape.darkLogo.unwrap(), 'url'),
  domains: z.array(optionalBy(emailDomainSchema, 'domain')),
  syncProfile: z.boolean(),
});

/** The PATCH: the branding whole (blank fields left out), the domains without blanks or repeats. */
export function experiencePatchOf(values: ExperienceForm): SsoConnectorPatch {
  const orNothing = (value: string) => (blank(value) ? {} : undefined);
  const branding = {
    ...(orNothing(values.displayName) ?? { displayName: values.displayName.trim() }),
    ...(orNothing(values.logo) ?? { logo: values.logo.trim() }),
    ...(orNothing(values.darkLogo) ?? { darkLogo: values.darkLogo.trim() }),
  };
  const domains = [
    ...new Set(
      values.domains.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter((domain) => domain !== ''),
    ),
  ];
  return { branding, domains, syncProfile: values.syncProfile };
}

/** A refusal's API path → the experience form's field (`domains.2`, `branding.logo`). */
export function experienceFieldOf(apiPath: string): string | undefined {
  const [head, key] = apiPath.split('.');
  if (head === 'branding' && key && ['displayName', 'logo', 'darkLogo'].includes(key)) return key;
  if (head === 'domains') return key ? `domains.${key}` : 'domains';
  if (head === 'syncProfile') return head;
  return undefined;
}

// ——— IdP-initiated sign-in ———

/** The extra authorization parameter the form gives a field of its own. */
const SCOPE = 'scope';

export type IdpInitiatedForm = {
  /** On: PUT the settings; off: DELETE them. */
  enabled: boolean;
  defaultApplicationId: string;
  /** '' for any of the application's redirect URIs. */
  redirectUri: string;
  scope: string;
  /** The other extra authorization parameters. */
  authParameters: KeyValueRow[];
  /** Shown, never on: Gatehouse cannot start the application's PKCE request (the server refuses it). */
  autoSendAuthorizationRequest: boolean;
  clientIdpInitiatedAuthCallbackUri: string;
};

export function toIdpInitiatedForm(config: SsoIdpInitiatedAuthConfig | null | undefined): IdpInitiatedForm {
  const parameters = Object.entries(config?.authParameters ?? {});
  return {
    enabled: Boolean(config),
    defaultApplicationId: config?.defaultApplicationId ?? '',
    redirectUri: config?.redirectUri ?? '',
    scope: config?.authParameters[SCOPE] ?? '',
    authParameters: parameters.filter(([key]) => key !== SCOPE).map(([key, value]) => ({ key, value })),
    autoSendAuthorizationRequest: false,
    clientIdpInitiatedAuthCallbackUri: config?.clientIdpInitiatedAuthCallbackUri ?? '',
  };
}

const idpInputShape = ssoIdpInitiatedAuthConfigInputSchema.shape;
const parameterValue = z.string().max(1024);

/** Checked only when the form turns IdP-initiated sign-in on; the shared schema's rules, named for the messages. */
export const idpInitiatedFormSchema = z
  .object({
    enabled: z.boolean(),
    defaultApplicationId: z.string(),
    redirectUri: z.string(),
    scope: z.string(),
    authParameters: z.array(z.object({ key: z.string(), value: z.string() })),
    autoSendAuthorizationRequest: z.boolean(),
    clientIdpInitiatedAuthCallbackUri: z.string(),
  })
  .superRefine((values, context) => {
    if (!values.enabled) return;
    const issue = (path: (string | number)[], message: Rule) => context.addIssue({ code: 'custom', path, message });
    if (!fits(idpInputShape.defaultApplicationId, values.defaultApplicationId))
      issue(['defaultApplicationId'], 'required');
    const callback = values.clientIdpInitiatedAuthCallbackUri.trim();
    if (!callback) issue(['clientIdpInitiatedAuthCallbackUri'], 'required');
    else if (!isSsoClientCallbackUri(callback)) issue(['clientIdpInitiatedAuthCallbackUri'], 'callback_url');
    if (!parameterValue.safeParse(values.scope.trim()).success) issue(['scope'], 'too_long');
    const seen = new Set<string>([SCOPE]);
    values.authParameters.forEach(({ key, value }, index) => {
      const name = key.trim();
      if (!name && !value.trim()) return;
      const problem = name ? ssoAuthParameterProblem(name) : 'pattern';
      if (problem === 'pattern') issue(['authParameters', index, 'key'], 'parameter_name');
      else if (problem === 'reserved') issue(['authParameters', index, 'key'], 'parameter_reserved');
      else if (seen.has(name)) issue(['authParameters', index, 'key'], 'parameter_duplicate');
      seen.add(name);
      if (!parameterValue.safeParse(value.trim()).success) issue(['authParameters', index, 'value'], 'too_long');
    });
  });

/** The PUT: blank rows left out, the scope as the `scope` parameter; never auto-send. */
export function idpInitiatedInputOf(values: IdpInitiatedForm): SsoIdpInitiatedAuthConfigInput {
  const parameters: Record<string, string> = {};
  if (!blank(values.scope)) parameters[SCOPE] = values.scope.trim();
  for (const { key, value } of values.authParameters) {
    if (!blank(key)) parameters[key.trim()] = value.trim();
  }
  return {
    defaultApplicationId: values.defaultApplicationId,
    redirectUri: blank(values.redirectUri) ? null : values.redirectUri,
    authParameters: parameters,
    autoSendAuthorizationRequest: false,
    clientIdpInitiatedAuthCallbackUri: values.clientIdpInitiatedAuthCallbackUri.trim(),
  };
}

/** A refusal's API path → the IdP-initiated form's field (`authParameters.prompt` → that row's name). */
export function idpInitiatedFieldOf(values: IdpInitiatedForm) {
  return (apiPath: string): string | undefined => {
    const [head, ...rest] = apiPath.split('.');
    if (head === 'defaultApplicationId' || head === 'redirectUri' || head === 'clientIdpInitiatedAuthCallbackUri') {
      return head;
    }
    if (head === 'autoSendAuthorizationRequest') return head;
    if (head !== 'authParameters') return undefined;
    const name = rest.join('.');
    if (!name) return 'scope';
    if (name === SCOPE) return 'scope';
    const index = values.authParameters.findIndex((row) => row.key.trim() === name);
    return index >= 0 ? `authParameters.${index}.key` : 'scope';
  };
}

// ——— messages ———

/** The limits the 'too long' message names, by field. */
const maxOf: Record<string, number> = {
  connectorName: 128,
  connectionName: 128,
  clientId: 512,
  clientSecret: 2048,
  scope: 1024,
  metadata: 200_000,
  entityId: 1024,
  x509Certificate: 20_000,
  displayName: 128,
  id: 256,
  email: 256,
  name: 256,
  value: 1024,
};

/** The translation key of each rule the schemas above name (anything else reads 'Required'). */
const ruleMessages = {
  provider: 'errors.provider_required',
  url: 'errors.url',
  domain: 'errors.domain',
  callback_url: 'errors.callback_url',
  parameter_name: 'errors.parameter_name',
  parameter_reserved: 'errors.parameter_reserved',
  parameter_duplicate: 'errors.parameter_duplicate',
  organization: 'errors.organization_required',
} as const;
const ruleMessage = (rule: string) =>
  Object.hasOwn(ruleMessages, rule) ? ruleMessages[rule as keyof typeof ruleMessages] : 'errors.required';

/**
 * The words of the schemas above: each failing field gets the message of the rule it broke (the schemas carry rule
 * names, since a check's own message wins over any zod error map), in the interface language.
 */
export const ssoWording =
  (t: TFunction<'enterprise_sso'>): IssueWording =>
  (issue) => {
    const field = String(issue.path.at(-1) ?? '');
    return issue.message === 'too_long'
      ? t('errors.too_long', { max: maxOf[field] ?? 128 })
      : t(ruleMessage(issue.message));
  };
