import {
  type Connector,
  type ConnectorMetadata,
  type ConnectorPatch,
  connectorMetadataSchema,
  type Language,
  languages,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { IssueWording } from '../../../components/form/schema-resolver.ts';
import type { TFunction } from '../../../i18n/runtime.ts';

/** The experience tab: the display name per language, the logo URL and whether sign-ins update the profile. */
export type NameRow = { language: Language | ''; name: string };
export type ExperienceForm = { names: NameRow[]; logo: string; syncProfile: boolean };

export const NAME_MAX = 128;

export function connectorToExperience(connector: Connector): ExperienceForm {
  const names = Object.entries(connector.metadata.name ?? {}).map(([language, name]) => ({
    language: language as Language,
    name,
  }));
  // English first, and always there: it is the name every language falls back to.
  const english = names.find((row) => row.language === 'en') ?? { language: 'en' as const, name: '' };
  return {
    names: [english, ...names.filter((row) => row.language !== 'en')],
    logo: connector.metadata.logo ?? '',
    syncProfile: connector.syncProfile,
  };
}

/** The PATCH: the whole metadata (the server replaces it), with empty names and an empty logo left out. */
export function experienceToPatch(connector: Connector, values: ExperienceForm): ConnectorPatch {
  const name = Object.fromEntries(
    values.names.filter((row) => row.language && row.name.trim()).map((row) => [row.language, row.name.trim()]),
  );
  const { name: _name, logo: _logo, ...rest } = connector.metadata;
  const metadata: ConnectorMetadata = {
    ...rest,
    ...(Object.keys(name).length ? { name } : {}),
    ...(values.logo.trim() ? { logo: values.logo.trim() } : {}),
  };
  // Profile sync means updating a user's profile from the provider at each sign-in: social connectors only.
  return connector.type === 'Social' ? { metadata, syncProfile: values.syncProfile } : { metadata };
}

/** The shared metadata rules: a name per language up to 128, the logo an http(s) URL. */
const metadataShape = connectorMetadataSchema.shape;
const nameSchema = metadataShape.name.unwrap().valueType;

/** The rules the rows add: a name needs its language, and a language has one name (the API's is a map by language). */
export const experienceFormSchema = z.object({
  names: z
    .array(z.object({ language: z.union([z.enum(languages), z.literal('')]), name: z.string() }))
    .superRefine((rows, context) => {
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        if (!row.language) {
          if (row.name.trim()) {
            context.addIssue({ code: 'custom', message: 'language_required', path: [index, 'language'] });
          }
        } else if (seen.has(row.language)) {
          context.addIssue({ code: 'custom', message: 'language_duplicate', path: [index, 'language'] });
        }
        if (row.language) seen.add(row.language);
        if (!nameSchema.safeParse(row.name.trim()).success) {
          context.addIssue({ code: 'custom', message: 'too_long', path: [index, 'name'] });
        }
      });
    }),
  logo: z.string().refine((text) => !text.trim() || metadataShape.logo.safeParse(text.trim()).success, 'url_invalid'),
  syncProfile: z.boolean(),
});

const ruleMessages = {
  language_required: 'errors.language_required',
  language_duplicate: 'errors.language_duplicate',
  url_invalid: 'errors.url_invalid',
} as const;

/** The rules above, said in the console's words. */
export const experienceWording =
  (t: TFunction<'connectors'>): IssueWording =>
  (issue) => {
    if (issue.message === 'too_long') return t('errors.too_long', { max: NAME_MAX });
    return Object.hasOwn(ruleMessages, issue.message)
      ? t(ruleMessages[issue.message as keyof typeof ruleMessages])
      : undefined;
  };

export const languageOptions = languages;
