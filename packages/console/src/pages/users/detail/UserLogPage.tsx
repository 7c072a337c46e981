import { useParams } from 'react-router';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { LogEntryPage } from '../../audit-logs/LogEntryPage.tsx';
import { toUser } from '../links.ts';

/** Spec §2.2 users/{userId}/logs/{logId}: one entry of the user's logs. */
export function UserLogPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const resolve = useTenantPath();
  return <LogEntryPage backTo={resolve(toUser(userId, 'logs'))} backLabel={t('logs.back')} />;
}
