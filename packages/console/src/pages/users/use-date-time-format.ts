import { useCallback, useMemo } from 'react';
import { useTranslation } from '../../i18n/react.tsx';

/** Times of users (created, last sign-in) in the interface language: 'Nov 21, 2026, 4:38 PM'. */
export function useDateTimeFormat(): (epochMs: number) => string {
  const { i18n } = useTranslation();
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  return useCallback((epochMs: number) => format.format(epochMs), [format]);
}
