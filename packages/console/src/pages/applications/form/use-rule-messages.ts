import { MAX_URI_LENGTH } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useTranslation } from '../../../i18n/react.tsx';
import type { RuleMessages } from './rules.ts';

/** The rule messages of this area in the interface language. */
export function useRuleMessages(): RuleMessages {
  const { t } = useTranslation('applications');
  return useMemo(
    () => ({
      required: (field) => t('errors.required', { field: t(`fields.${field}`) }),
      tooLong: (field, max) => t('errors.too_long', { field: t(`fields.${field}`), max }),
      redirectUri: (problem, kind) =>
        problem === 'too_long'
          ? t('errors.redirect_uri.too_long', { max: MAX_URI_LENGTH })
          : problem === 'not_absolute'
            ? t(`errors.redirect_uri.not_absolute_${kind}`)
            : t(`errors.redirect_uri.${problem}`),
      origin: () => t('errors.origin'),
      webUrl: () => t('errors.web_url'),
      range: (min, max) => t('errors.range', { min, max }),
      certificate: () => t('errors.certificate'),
      duplicate: () => t('errors.duplicate'),
    }),
    [t],
  );
}
