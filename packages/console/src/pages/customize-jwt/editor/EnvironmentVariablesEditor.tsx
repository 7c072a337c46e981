import type { Control } from 'react-hook-form';
import { KeyValueRows } from '../../../components/form/KeyValueRows.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../CustomizeJwt.module.css';
import { isMaskedValue, type JwtEditorForm } from './editor-form.ts';

/**
 * The script's `environmentVariables` as name/value rows; empty rows are ignored. Stored values show masked and go
 * back masked (kept) unless retyped: focusing a masked value selects it, so typing replaces it as a whole.
 */
export function EnvironmentVariablesEditor({ control }: { control: Control<JwtEditorForm> }) {
  const { t } = useTranslation('customize_jwt');
  return (
    <div className={styles.variables}>
      <KeyValueRows
        control={control}
        name="environmentVariables"
        labels={{
          key: t('variables.name'),
          value: t('variables.value'),
          add: t('variables.add'),
          remove: (number) => t('variables.remove', { number }),
        }}
        empty={t('variables.empty')}
        confidentialValues
        onValueFocus={(event) => {
          if (isMaskedValue(event.target.value)) event.target.select();
        }}
      />
    </div>
  );
}
