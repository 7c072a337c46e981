import { useMemo } from 'react';
import { passwordRejectionMessages } from '../../components/password/password-rejections.ts';
import { useTranslation } from '../../i18n/react.tsx';
import type { UserFormMessages } from './create/create-user-form.ts';
import { passwordPolicy } from './user-rules.ts';

/** The users forms' refusals in the interface language; the policy's sentences are the kit's, shared with the profile. */
export function useUserFormMessages(): UserFormMessages {
  const { t, i18n } = useTranslation('users');
  const { t: kitT } = useTranslation('components');
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return {
      identifierRequired: t('errors.identifier_required'),
      fieldProblem: (field, problem) => {
        if (problem.kind === 'too_long' || field === 'name') {
          const max = problem.kind === 'too_long' ? problem.max : 0;
          return t('errors.too_long', { field: t(`fields.${field}`), max: number.format(max) });
        }
        return t(`errors.${field}_invalid`);
      },
      passwordRequired: t('errors.password_required'),
      passwordRejected: (codes) => passwordRejectionMessages(codes, kitT, passwordPolicy).join(' '),
    };
  }, [t, kitT, i18n.language]);
}
