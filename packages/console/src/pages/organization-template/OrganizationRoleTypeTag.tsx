import type { OrganizationRoleType } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Tag } from '../../components/Tag/Tag.tsx';

/** Spec §3: an organization role is for members (User) or for machine-to-machine applications. */
export function OrganizationRoleTypeTag({ type }: { type: OrganizationRoleType }) {
  const { t } = useTranslation('organization_template');
  return <Tag status={type === 'User' ? 'info' : 'neutral'}>{t(`types.${type}.tag`)}</Tag>;
}
