import { useTenantPath } from '../components/routing/tenant-path.ts';
import { availableSidebarItems } from './areas.ts';
import { edition } from './edition.ts';
import { firstSidebarPath } from './sidebar.ts';

const landing = firstSidebarPath(edition, availableSidebarItems(edition));

/** Where 'home' links go: the tenant's first sidebar page, the same place the tenant index redirects to. */
export function useLandingPath(): string {
  return useTenantPath()(landing);
}
