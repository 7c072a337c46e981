import {
  type ConnectorFormItem,
  type ConnectorType,
  connectorConfigSchema,
  connectorSecretBinding,
  MASKED_SECRET,
  type MessageTemplate,
  type TemplateUsage,
  templateUsages,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { noFields, type SecretBinding } from '../../../components/form/masked-secrets.ts';
import type { IssueWording } from '../../../components/form/schema-resolver.ts';
import type { TFunction } from '../../../i18n/runtime.ts';

/**
 * The generic connector form's values: one entry per form item of the factory, keyed by the item's key, under
 * `config`. Text-like items are strings, numbers a number or null, switches booleans, JSON its text, templates rows.
 * The rules are the shared `connectorConfigSchema(formItems)`, checked on the config this form would send.
 */
export type TemplateRow = { usageType: TemplateUsage | ''; subject: string; content: string; type: string };
export type ConfigValue = string | number | boolean | null | TemplateRow[];
export type ConfigForm = { config: Record<string, ConfigValue> };

/** The form field of a config key (`config.host`); keys are the factory's identifiers. */
export const configField = (key: string) => `config.${key}` as const;

export const emptyTemplate: TemplateRow = { usageType: '', subject: '', content: '', type: 'text/plain' };

function templateRows(value: unknown): TemplateRow[] {
  if (!Array.isArray(value)) return [];
  return (value as Partial<MessageTemplate>[]).map((template) => ({
    usageType: templateUsages.includes(template.usageType as TemplateUsage)
      ? (template.usageType as TemplateUsage)
      : '',
    subject: template.subject ?? '',
    content: template.content ?? '',
    type: template.type ?? 'text/plain',
  }));
}

/** The form's values for a config (a saved connector's, masked secrets included, or `{}` for a new one). */
export function configToForm(formItems: readonly ConnectorFormItem[], config: Record<string, unknown>): ConfigForm {
  const values: Record<string, ConfigValue> = {};
  for (const item of formItems) {
    const value = item.key in config ? config[item.key] : item.defaultValue;
    switch (item.type) {
      case 'Number':
        values[item.key] = typeof value === 'number' ? value : null;
        break;
      case 'Switch':
        values[item.key] = value === true;
        break;
      case 'Json':
        values[item.key] = value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
        break;
      case 'Templates':
        values[item.key] = templateRows(value);
        break;
      default:
        values[item.key] = value === undefined || value === null ? '' : String(value);
    }
  }
  return { config: values };
}

/** A config built from the form, and the JSON items whose text does not read as an object. */
export type BuiltConfig = { config: Record<string, unknown>; badJson: string[] };

/**
 * The config the form sends: empty values left out (as the server does), JSON parsed, template rows trimmed to what
 * their connector type has (a subject and a content type only for email). A masked secret goes back as it is, which
 * keeps the stored value.
 */
export function formToConfig(
  formItems: readonly ConnectorFormItem[],
  type: ConnectorType,
  { config: values }: ConfigForm,
): BuiltConfig {
  const config: Record<string, unknown> = {};
  const badJson: string[] = [];
  for (const item of formItems) {
    const value = values[item.key];
    if (value === undefined || value === null) continue;
    if (item.type === 'Json') {
      const text = String(value).trim();
      if (!text) continue;
      try {
        config[item.key] = JSON.parse(text);
      } catch {
        badJson.push(item.key);
      }
      continue;
    }
    if (item.type === 'Templates') {
      const rows = Array.isArray(value) ? value : [];
      if (rows.length === 0) continue;
      config[item.key] = rows.map((row) => ({
        usageType: row.usageType,
        ...(type === 'Email' && row.subject.trim() ? { subject: row.subject } : {}),
        content: row.content,
        ...(type === 'Email' ? { type: row.type || 'text/plain' } : {}),
      }));
      continue;
    }
    if (typeof value === 'string' && value.trim() === '') continue;
    config[item.key] = typeof value === 'string' && item.type !== 'MultilineText' ? value.trim() : value;
  }
  return { config, badJson };
}

/** Whether a form item's current value is the masked stand-in of a stored secret. */
export const isMasked = (value: unknown): boolean => value === MASKED_SECRET;

/**
 * Where a factory's secrets go, the shared rule of the server (`connectorSecretBinding`), at the form's field paths.
 */
export function secretBindingOf(formItems: readonly ConnectorFormItem[]): SecretBinding {
  const { secrets, destinations } = connectorSecretBinding(formItems);
  return { secrets: secrets.map(configField), destinations: destinations.map(configField) };
}

export type IssueRule =
  | 'required'
  | 'url_invalid'
  | 'number_invalid'
  | 'json_invalid'
  | 'select_required'
  | 'too_long'
  | 'template_usage_required'
  | 'template_content_required'
  | 'invalid';

/** Which rule an issue of `connectorConfigSchema` broke, said in the console's words. */
export function ruleOf(item: ConnectorFormItem | undefined, issue: z.core.$ZodIssue): IssueRule {
  if (!item) return 'invalid';
  const isMissing = issue.code === 'invalid_type' && issue.message.includes('undefined');
  if (item.type === 'Templates') {
    const field = issue.path[2];
    if (field === 'usageType') return 'template_usage_required';
    if (field === 'content') return issue.code === 'too_big' ? 'too_long' : 'template_content_required';
    return 'invalid';
  }
  if (issue.code === 'too_big') return 'too_long';
  if (isMissing || (issue.code === 'too_small' && item.type !== 'Number')) return 'required';
  switch (item.type) {
    case 'Url':
      return 'url_invalid';
    case 'Number':
      return 'number_invalid';
    case 'Json':
      return 'json_invalid';
    case 'Select':
      return 'select_required';
    default:
      return 'invalid';
  }
}

/** The form path of an issue's path in the config (`templates.0.content` → `config.templates.0.content`). */
export function formPathOf(apiPath: string): string {
  return `config.${apiPath}`;
}

/**
 * The form's rules: the shared `connectorConfigSchema(formItems)`, checked on exactly the config the form will send,
 * each issue at its field and named by the rule it broke (`ruleOf`). `retyping` are the secrets emptied because their
 * destination moved: they are required then, even where the factory makes them optional (else the stored one would be
 * dropped unnoticed).
 */
export function configFormSchema(
  formItems: readonly ConnectorFormItem[],
  type: ConnectorType,
  retyping: ReadonlySet<string> = noFields,
) {
  const configSchema = connectorConfigSchema(formItems);
  return z.custom<ConfigForm>().superRefine((values, context) => {
    const refuse = (key: string, rule: IssueRule, path: readonly PropertyKey[] = [], max?: number) =>
      context.addIssue({ code: 'custom', message: rule, path: ['config', key, ...path], params: { max } });
    for (const field of retyping) {
      const key = field.slice(configField('').length);
      const value = values.config[key];
      if (typeof value !== 'string' || value.trim() === '') refuse(key, 'required');
    }
    const { config, badJson } = formToConfig(formItems, type, values);
    for (const key of badJson) refuse(key, 'json_invalid');
    const result = configSchema.safeParse(config);
    if (result.success) return;
    for (const issue of result.error.issues) {
      const [key, ...rest] = issue.path;
      const item = formItems.find((candidate) => candidate.key === key);
      refuse(String(key), ruleOf(item, issue), rest, maxOf(issue));
    }
  });
}

/** The rules' names, said in the console's words with the limit they name. */
export const configWording =
  (t: TFunction<'connectors'>): IssueWording =>
  (issue) =>
    issue.code === 'custom' ? t(`errors.${issue.message as IssueRule}`, { max: issue.params?.max }) : undefined;

function maxOf(issue: z.core.$ZodIssue): number | undefined {
  return issue.code === 'too_big' ? Number(issue.maximum) : undefined;
}
