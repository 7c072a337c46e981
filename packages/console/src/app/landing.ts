import { availableSidebarItems } from './areas.ts';
import { edition } from './edition.ts';
import { firstSidebarPath } from './sidebar.ts';

/** The tenant's first sidebar page, which the shell provides as the landing path (components/routing/landing-path.ts). */
export const landingPath = firstSidebarPath(edition, availableSidebarItems(edition));
