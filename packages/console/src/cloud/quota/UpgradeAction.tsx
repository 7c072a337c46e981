import { Link } from 'react-router';
import { buttonClassName } from '../../components/Button/Button.tsx';
import { useCurrentMemberScopes } from '../tenants/member-scopes.ts';
import styles from './Quota.module.css';
import { subscriptionTabPath } from './subscription-link.ts';

/**
 * The way out of a quota or billing modal: tenant managers (spec §6 canManageTenant) get a link to the subscription
 * tab; other members are told who can act, since the tab is not theirs.
 */
export function UpgradeAction({
  tenantId,
  label,
  contactText,
  onNavigate,
}: {
  tenantId: string;
  label: string;
  contactText: string;
  onNavigate: () => void;
}) {
  const { flags, isLoading } = useCurrentMemberScopes();
  if (isLoading) return null;
  if (!flags.canManageTenant) return <p className={styles.muted}>{contactText}</p>;
  return (
    <Link
      to={subscriptionTabPath(tenantId)}
      className={buttonClassName('primary')}
      onClick={onNavigate}
      data-autofocus
      data-testid="quota-upgrade"
    >
      {label}
    </Link>
  );
}
