import type { OrganizationRole } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded organization role. */
export type OrganizationRoleOutletContext = { role: OrganizationRole };

export const useOrganizationRoleOutlet = (): OrganizationRoleOutletContext =>
  useOutletContext<OrganizationRoleOutletContext>();
