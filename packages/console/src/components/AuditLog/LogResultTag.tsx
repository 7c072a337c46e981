import type { LogPayload } from '@gatehouse/schemas';
import { useTranslation } from '../../i18n/react.tsx';
import { Tag } from '../Tag/Tag.tsx';

/** Whether the logged event succeeded, in words and colour. */
export function LogResultTag({ result }: { result: LogPayload['result'] }) {
  const { t } = useTranslation(['components_extra', 'components']);
  return (
    <Tag status={result === 'Success' ? 'success' : 'error'}>
      {result === 'Success' ? t('audit_log.success') : t('audit_log.failure')}
    </Tag>
  );
}
