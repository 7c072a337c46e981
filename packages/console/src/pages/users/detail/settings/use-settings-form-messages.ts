import { useMemo } from 'react';
import { maxCustomDataKib } from '../../../../components/form/custom-data.ts';
import { useTranslation } from '../../../../i18n/react.tsx';
import { useUserFormMessages } from '../../use-user-form-messages.ts';
import { type AddressField, addressFields, type SettingsFormMessages } from './settings-form.ts';

const isAddressField = (field: string): field is AddressField => addressFields.some((name) => name === field);

/** The settings tab's refusals in the interface language, beyond those it shares with the create dialog. */
export function useSettingsFormMessages(): SettingsFormMessages {
  const { t, i18n } = useTranslation('users');
  const userMessages = useUserFormMessages();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return {
      ...userMessages,
      avatarInvalid: t('errors.avatar_invalid'),
      profileTooLong: (field, max) =>
        t('errors.too_long', {
          field: isAddressField(field) ? t(`address_fields.${field}`) : t(`profile_fields.${field}`),
          max: number.format(max),
        }),
      customData: (problem) => t(`errors.custom_data_${problem}`, { max: number.format(maxCustomDataKib) }),
    };
  }, [t, i18n.language, userMessages]);
}
