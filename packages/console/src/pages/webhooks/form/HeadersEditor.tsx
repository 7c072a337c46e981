import type { Control } from 'react-hook-form';
import { KeyValueRows } from '../../../components/form/KeyValueRows.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import type { HookForm } from '../hook-form.ts';
import styles from '../Webhooks.module.css';

/** Custom headers as name/value rows; empty rows are ignored when saving. */
export function HeadersEditor({ control }: { control: Control<HookForm> }) {
  const { t } = useTranslation('webhooks');
  return (
    <fieldset className={styles.headers}>
      <legend className={styles.legend}>{t('fields.headers')}</legend>
      <p className={styles.hint}>{t('hints.headers')}</p>
      <KeyValueRows
        control={control}
        name="headers"
        labels={{
          key: t('fields.header_name'),
          value: t('fields.header_value'),
          add: t('headers.add'),
          remove: (number) => t('headers.remove', { number }),
        }}
      />
    </fieldset>
  );
}
