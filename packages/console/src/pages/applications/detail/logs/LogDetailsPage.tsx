import { useParams } from 'react-router';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../../i18n/react.tsx';
import { LogEntryPage } from '../../../audit-logs/LogEntryPage.tsx';
import { toApplication } from '../../links.ts';

/** Spec §2.2 'applications/{appId}/logs/{logId}': one audit-log entry, with its whole payload. */
export function LogDetailsPage() {
  const { t } = useTranslation('applications');
  const { id = '' } = useParams();
  const resolve = useTenantPath();
  return <LogEntryPage backTo={resolve(toApplication(id, 'logs'))} backLabel={t('logs.back')} />;
}
