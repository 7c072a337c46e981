import type common from '../i18n/locales/en/common.json';
import type { Edition } from './edition.ts';

type SectionKey = keyof typeof common.sidebar.sections;
type ItemKey = keyof typeof common.sidebar.items;

export type SidebarItem = { key: ItemKey; editions?: readonly Edition[] };
export type SidebarSection = { key: SectionKey; items: readonly SidebarItem[] };

/** The sidebar of spec §2.3 as data; an area joins it when its pages exist. */
export const sidebar: readonly SidebarSection[] = [{ key: 'overview', items: [{ key: 'get_started' }] }];

/** Spec §2.3: an item links to a path made from its key. */
export function sidebarItemPath(item: SidebarItem): string {
  return item.key.replaceAll('_', '-');
}

export function visibleSidebar(edition: Edition): SidebarSection[] {
  return sidebar
    .map((section) => ({ ...section, items: section.items.filter((item) => item.editions?.includes(edition) ?? true) }))
    .filter((section) => section.items.length > 0);
}

/** Where the tenant index lands (spec §2.3). */
export function firstSidebarPath(edition: Edition): string {
  const first = visibleSidebar(edition)[0]?.items[0];
  if (!first) throw new Error('First sidebar item not found');
  return sidebarItemPath(first);
}
