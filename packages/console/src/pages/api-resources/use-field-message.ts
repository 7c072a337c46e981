import { useCallback } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import type { FieldProblem, RuleField } from './form-rules.ts';

/** Turns a refused value into the sentence shown under its field, in the interface language. */
export function useFieldMessage(): (problem: FieldProblem, field: RuleField) => string {
  const { t, i18n } = useTranslation('api_resources');
  return useCallback(
    (problem, field) => {
      const number = new Intl.NumberFormat(i18n.language);
      switch (problem.key) {
        case 'required':
          return t('errors.required', { field: t(`fields.${field}`) });
        case 'too_long':
          return t('errors.too_long', { field: t(`fields.${field}`), max: number.format(problem.max) });
        case 'indicator_invalid':
          return t('errors.indicator_invalid');
        case 'permission_name_invalid':
          return t('errors.permission_name_invalid');
        case 'ttl_range':
          return t('errors.ttl_range', { min: number.format(problem.min), max: number.format(problem.max) });
      }
    },
    [t, i18n.language],
  );
}
