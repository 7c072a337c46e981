import type { Role } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded role. */
export type RoleOutletContext = { role: Role };

export const useRoleOutlet = (): RoleOutletContext => useOutletContext<RoleOutletContext>();
