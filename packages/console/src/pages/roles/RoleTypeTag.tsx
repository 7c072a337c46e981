import type { RoleType } from '@gatehouse/schemas';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';

/** Spec §3: a role is for users or for machine-to-machine applications. */
export function RoleTypeTag({ type }: { type: RoleType }) {
  const { t } = useTranslation('roles');
  return <Tag status={type === 'User' ? 'info' : 'neutral'}>{t(`types.${type}.tag`)}</Tag>;
}
