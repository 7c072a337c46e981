import { Link } from 'react-router';
import { useUserScimProvisioning } from '../../../api/scim-connections.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toSsoConnector } from '../../enterprise-sso/links.ts';
import styles from '../Users.module.css';

/**
 * 'Provisioned by SCIM: {connection}' in a user's header (issue 45), linking to the SSO connector's provisioning tab,
 * when a directory created or took over the account (`GET /users/{id}/scim`); nothing otherwise, or while it loads.
 */
export function ScimMarker({ userId }: { userId: string }) {
  const { t } = useTranslation('users');
  const resolve = useTenantPath();
  const provisioning = useUserScimProvisioning(userId);
  const found = provisioning.data;
  if (!found) return null;
  return (
    <Link
      to={resolve(toSsoConnector(found.ssoConnectorId, 'provisioning'))}
      className={styles.tagLink}
      data-testid="scim-marker"
    >
      <Tag status="info">{t('scim.provisioned_by', { name: found.connectionName })}</Tag>
    </Link>
  );
}
