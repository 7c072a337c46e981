import type { SieTab } from './sie-form.ts';

/** Link builders, relative to the tenant. */
export const toSignInExperience = (tab?: SieTab): string => (tab ? `sign-in-experience/${tab}` : 'sign-in-experience');
