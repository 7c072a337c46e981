import {
  type Connector,
  type ConnectorMetadata,
  type ConnectorPatch,
  connectorMetadataSchema,
  type Language,
  languages,
} from '@gatehouse/schemas';
import { toNestErrors } from '@hookform/resolvers';
import { useCallback } from 'react';
import type { FieldError, Resolver } from 'react-hook-form';
import { useTranslation } from '../../../i18n/react.tsx';

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

/** The shared metadata rules (name up to 128, logo an http(s) URL), said in the console's words. */
export function useExperienceResolver(): Resolver<ExperienceForm> {
  const { t } = useTranslation('connectors');
  return useCallback<Resolver<ExperienceForm>>(
    async (values, _context, options) => {
      const flat: Record<string, FieldError> = {};
      const seen = new Set<string>();
      values.names.forEach((row, index) => {
        if (!row.language) {
          if (row.name.trim())
            flat[`names.${index}.language`] = { type: 'required', message: t('errors.language_required') };
        } else if (seen.has(row.language)) {
          flat[`names.${index}.language`] = { type: 'duplicate', message: t('errors.language_duplicate') };
        }
        if (row.language) seen.add(row.language);
        if (row.name.trim().length > NAME_MAX) {
          flat[`names.${index}.name`] = { type: 'too_big', message: t('errors.too_long', { max: NAME_MAX }) };
        }
      });
      if (values.logo.trim() && !connectorMetadataSchema.shape.logo.safeParse(values.logo.trim()).success) {
        flat.logo = { type: 'url', message: t('errors.url_invalid') };
      }
      if (Object.keys(flat).length === 0) return { values, errors: {} };
      return { values: {}, errors: toNestErrors(flat, options as never) as never };
    },
    [t],
  );
}

export const languageOptions = languages;
