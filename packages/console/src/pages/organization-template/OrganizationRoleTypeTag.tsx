import type { OrganizationRoleType } from '@gatehouse/schemas';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';

/** Spec §3: an organization role is for members (User) or for machine-to-machine applications. */
export function OrganizationRoleTypeTag({ type }: { type: OrganizationRoleType }) {
  const { t } = useTranslation('organization_template');
  return <Tag status={type === 'User' ? 'info' : 'neutral'}>{t(`types.${type}.tag`)}</Tag>;
}
