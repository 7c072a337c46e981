import type { CardRadioOption } from '../../../components/form/CardRadio.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import type { PasswordMode } from '../create/create-user-form.ts';

/** The ways to give a user a password, as radio cards (creating may leave it out; a reset may not). */
export function usePasswordModeOptions(modes: readonly PasswordMode[]): CardRadioOption<PasswordMode>[] {
  const { t } = useTranslation('users');
  return modes.map((value) => ({
    value,
    title: t(`password.modes.${value}`),
    description: t(`password.modes.${value}_description`),
  }));
}
