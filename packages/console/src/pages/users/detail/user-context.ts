import type { User } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded user. */
export type UserOutletContext = { user: User };

export const useUserOutlet = (): UserOutletContext => useOutletContext<UserOutletContext>();
