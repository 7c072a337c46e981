import { createContext, useContext } from 'react';
import { useTenantPath } from './tenant-path.ts';

/**
 * The tenant's landing page, relative to the tenant (its first sidebar page, where the tenant index redirects).
 * The shell provides it from the area registry; components read it here, so they never import the app.
 */
export const LandingPathContext = createContext('');

/** Where 'home' links go, as a router path. */
export function useLandingPath(): string {
  return useTenantPath()(useContext(LandingPathContext));
}
