import type { Edition } from '@gatehouse/schemas';
import type { RouteObject } from 'react-router';
import type common from '../../i18n/locales/en/common.json';

/** The sidebar items of spec §2.3, typed from the source language so a key cannot be misspelt. */
export type SidebarItemKey = keyof typeof common.sidebar.items;

/** An entity the command palette can jump to, found by name (an application, a user…). */
export type PaletteEntity = {
  /** Unique within its area. */
  id: string;
  /** What the user reads and types: the entity's name. */
  label: string;
  /** Translated kind shown beside the label ('Application'). */
  kind: string;
  /** Tenant-relative path built with the area's link builder. */
  to: string;
};

/** Where the palette is open: the current tenant, so a search can call that tenant's management API. */
export type EntitySearchContext = { tenantId: string | undefined };

/** Looks up entities whose name matches; the palette aborts the signal when the query changes. */
export type EntitySearch = (
  query: string,
  signal: AbortSignal,
  context: EntitySearchContext,
) => Promise<readonly PaletteEntity[]>;

/**
 * One console area (an admin section of spec §2.2): its routes, the sidebar item it fills and how the command palette
 * finds its entities. Each area folder exports one from its routes.ts; app/areas.ts registers them. A sidebar item
 * shows only once an area for it is registered, so the sidebar never links to a page that does not exist.
 */
export type ConsoleArea = {
  sidebarItem?: SidebarItemKey;
  /** Editions the area exists in; all when omitted (tenant settings are cloud-only, spec §2.2). */
  editions?: readonly Edition[];
  /** Routes under the tenant, relative to it ('applications', 'applications/:id/:tab'). */
  routes: readonly RouteObject[];
  searchEntities?: EntitySearch;
};

export function isInEdition(area: Pick<ConsoleArea, 'editions'>, edition: Edition): boolean {
  return area.editions?.includes(edition) ?? true;
}
