import type { Edition } from '@gatehouse/schemas';
import { type ConsoleArea, isInEdition, type SidebarItemKey } from '../components/routing/area.ts';
import { getStartedArea } from '../pages/get-started/routes.ts';

/** Every admin area of the console. A new area adds its module here; its sidebar item then appears by itself. */
export const consoleAreas: readonly ConsoleArea[] = [getStartedArea];

export function areasOf(edition: Edition, areas: readonly ConsoleArea[] = consoleAreas): ConsoleArea[] {
  return areas.filter((area) => isInEdition(area, edition));
}

/** The sidebar items that have pages in this edition. */
export function availableSidebarItems(edition: Edition, areas: readonly ConsoleArea[] = consoleAreas) {
  return new Set<SidebarItemKey>(
    areasOf(edition, areas).flatMap((area) => (area.sidebarItem ? [area.sidebarItem] : [])),
  );
}
