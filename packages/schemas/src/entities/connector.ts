import { z } from 'zod';
import { languages } from '../constants.ts';

/** Spec §3: connector types and platforms. */
export const connectorTypes = ['Email', 'Sms', 'Social'] as const;
export type ConnectorType = (typeof connectorTypes)[number];
export const connectorPlatforms = ['Native', 'Universal', 'Web'] as const;

/** What a message is for (reference `TemplateType`): each has its own template, with `{{code}}` and friends. */
export const templateUsages = [
  'SignIn',
  'Register',
  'ForgotPassword',
  'Generic',
  'OrganizationInvitation',
  'UserPermissionValidation',
  'BindNewIdentifier',
  'MfaVerification',
  'BindMfa',
] as const;
export type TemplateUsage = (typeof templateUsages)[number];

/** A message template of an email or SMS connector; `subject` is for email only. */
export const messageTemplateSchema = z.strictObject({
  usageType: z.enum(templateUsages),
  subject: z.string().max(512).optional(),
  content: z.string().min(1).max(20_000),
  /** Email: `text/html` or `text/plain`. */
  type: z.enum(['text/html', 'text/plain']).optional(),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;

/**
 * One field of a connector's config, as the console draws it and the server checks it (one description, two uses:
 * `connectorConfigSchema` builds the zod schema from it). `isConfidential` fields are never answered back in full.
 */
export const connectorFormItemSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['Text', 'MultilineText', 'Url', 'Number', 'Switch', 'Select', 'Json', 'Templates']),
  required: z.boolean(),
  isConfidential: z.boolean().optional(),
  placeholder: z.string().optional(),
  description: z.string().optional(),
  defaultValue: z.unknown().optional(),
  selectItems: z.array(z.object({ value: z.string(), title: z.string() })).optional(),
});
export type ConnectorFormItem = z.infer<typeof connectorFormItemSchema>;

const localized = z.record(z.string(), z.string());

/** A kind of connector Gatehouse can make (reference `/connector-factories`). */
export const connectorFactorySchema = z.object({
  id: z.string(),
  type: z.enum(connectorTypes),
  platform: z.enum(connectorPlatforms).nullable(),
  target: z.string(),
  name: localized,
  description: localized,
  logo: z.string(),
  logoDark: z.string().nullable(),
  formItems: z.array(connectorFormItemSchema),
  /** A step-by-step guide for the console's guide page (Markdown). */
  readme: z.string(),
  isStandard: z.boolean(),
  isDemo: z.boolean(),
});
export type ConnectorFactory = z.infer<typeof connectorFactorySchema>;

export const connectorMetadataSchema = z.strictObject({
  target: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
  name: z.partialRecord(z.enum(languages), z.string().max(128)).optional(),
  logo: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  logoDark: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
});
export type ConnectorMetadata = z.infer<typeof connectorMetadataSchema>;

/** Spec §5: a connector id is at most 128 characters. */
export const connectorIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w-]+$/, 'letters, digits, _ and -');

/** A connector of the tenant, with its factory's fields (reference `ConnectorResponse`); secrets masked. */
export const connectorSchema = z.object({
  id: z.string(),
  connectorId: z.string(),
  config: z.record(z.string(), z.unknown()),
  metadata: connectorMetadataSchema,
  syncProfile: z.boolean(),
  enableTokenStorage: z.boolean(),
  createdAt: z.number(),
  type: z.enum(connectorTypes),
  platform: z.enum(connectorPlatforms).nullable(),
  target: z.string(),
  name: localized,
  logo: z.string(),
  logoDark: z.string().nullable(),
  formItems: z.array(connectorFormItemSchema),
});
export type Connector = z.infer<typeof connectorSchema>;

export const connectorCreateSchema = z.strictObject({
  connectorId: z.string().min(1).max(128),
  id: connectorIdSchema.optional(),
  config: z.record(z.string(), z.unknown()).default({}),
  metadata: connectorMetadataSchema.optional(),
  syncProfile: z.boolean().optional(),
  enableTokenStorage: z.boolean().optional(),
});
export type ConnectorCreate = z.infer<typeof connectorCreateSchema>;

export const connectorPatchSchema = z.strictObject({
  config: z.record(z.string(), z.unknown()).optional(),
  metadata: connectorMetadataSchema.optional(),
  syncProfile: z.boolean().optional(),
  enableTokenStorage: z.boolean().optional(),
});
export type ConnectorPatch = z.infer<typeof connectorPatchSchema>;

/** POST /connectors/{factoryId}/test: a test message with a config not saved yet. */
export const connectorTestSchema = z.strictObject({
  email: z.string().max(128).optional(),
  phone: z.string().max(32).optional(),
  config: z.record(z.string(), z.unknown()),
  locale: z.enum(languages).optional(),
});

/** The value that stands for a confidential field in answers; sent back unchanged, it keeps the stored value. */
export const MASKED_SECRET = '********';

/**
 * A masked secret is bound to where it is sent (issue 39, item 3): the config keys that hold secrets, and those that
 * decide where requests (and so the secrets) go. A secret kept by its mask is refused when a destination changes.
 */
export type SecretBinding = { secrets: readonly string[]; destinations: readonly string[] };

/** A connector's binding: its confidential items are the secrets; its URL items, an SMTP host and port the destinations. */
export function connectorSecretBinding(formItems: readonly ConnectorFormItem[]): SecretBinding {
  return {
    secrets: formItems.filter((item) => item.isConfidential).map((item) => item.key),
    destinations: formItems
      .filter((item) => item.type === 'Url' || item.key === 'host' || item.key === 'port')
      .map((item) => item.key),
  };
}

/**
 * The zod schema of a config, built from the factory's form items: required text fields non-empty, numbers, URLs
 * http(s), switches boolean, JSON objects, templates a list of message templates. Unknown keys are refused.
 */
export function connectorConfigSchema(formItems: readonly ConnectorFormItem[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const item of formItems) {
    let field: z.ZodType;
    switch (item.type) {
      case 'Number':
        field = z.number().int().min(0).max(1_000_000);
        break;
      case 'Switch':
        field = z.boolean();
        break;
      case 'Url':
        field = z.url({ protocol: /^https?$/ }).max(2048);
        break;
      case 'Json':
        field = z.record(z.string(), z.unknown());
        break;
      case 'Templates':
        field = z.array(messageTemplateSchema).max(templateUsages.length * 4);
        break;
      case 'Select':
        field = z.enum((item.selectItems ?? []).map((option) => option.value) as [string, ...string[]]);
        break;
      default:
        field = item.required ? z.string().trim().min(1).max(8192) : z.string().trim().max(8192);
    }
    shape[item.key] = item.required ? field : field.optional();
  }
  return z.strictObject(shape);
}
