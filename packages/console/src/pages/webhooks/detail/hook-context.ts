import type { Hook } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded webhook. */
export type HookOutletContext = { hook: Hook };

export const useHookOutlet = (): HookOutletContext => useOutletContext<HookOutletContext>();
