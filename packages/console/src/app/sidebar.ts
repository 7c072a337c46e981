import type { Edition } from '@gatehouse/schemas';
import type { SidebarItemKey } from '../components/routing/area.ts';
import type common from '../i18n/locales/en/common.json';
import { contactRows, externalLinks } from './external-links.ts';

type SectionKey = keyof typeof common.sidebar.sections;
type MoreKey = keyof typeof common.sidebar.more;

/** An internal link with an active state; its path is made from its key (spec §2.3). */
export type SidebarItem = { key: SidebarItemKey; editions?: readonly Edition[] };
export type SidebarSection = { key: SectionKey; items: readonly SidebarItem[] };

/** The other two row kinds of spec §2.3: an external link opened in a new tab, and a modal opener. */
export type SidebarExtraRow =
  | { kind: 'external'; key: MoreKey; href: string }
  | { kind: 'modal'; key: MoreKey; modal: 'contact' };

/** Spec §2.3, complete and in order. Which items show depends on the edition and on the areas that exist. */
export const sidebar: readonly SidebarSection[] = [
  { key: 'overview', items: [{ key: 'get_started' }, { key: 'dashboard' }] },
  {
    key: 'authentication',
    items: [
      { key: 'applications' },
      { key: 'sign_in_experience' },
      { key: 'mfa' },
      { key: 'connectors' },
      { key: 'enterprise_sso' },
    ],
  },
  { key: 'authorization', items: [{ key: 'api_resources' }, { key: 'roles' }, { key: 'organization_template' }] },
  { key: 'users', items: [{ key: 'organizations' }, { key: 'users' }] },
  {
    key: 'developer',
    items: [{ key: 'signing_keys' }, { key: 'customize_jwt' }, { key: 'webhooks' }, { key: 'audit_logs' }],
  },
  { key: 'tenant', items: [{ key: 'tenant_settings', editions: ['cloud'] }] },
];

/** Below the sections: the documentation (new tab) and the contact dialog, each when its links are configured. */
export function sidebarExtraRows(links: typeof externalLinks = externalLinks): SidebarExtraRow[] {
  return [
    ...(links.docs ? [{ kind: 'external' as const, key: 'docs' as const, href: links.docs }] : []),
    ...(contactRows(links).length
      ? [{ kind: 'modal' as const, key: 'contact_us' as const, modal: 'contact' as const }]
      : []),
  ];
}

/** Spec §2.3: an item links to a path made from its key. */
export function sidebarItemPath(item: Pick<SidebarItem, 'key'>): string {
  return item.key.replaceAll('_', '-');
}

/**
 * The sections as shown: items of other editions and items whose area is not registered are left out, and so are
 * sections left empty. The order is always the spec's.
 */
export function visibleSidebar(edition: Edition, available: ReadonlySet<SidebarItemKey>): SidebarSection[] {
  return sidebar
    .map((section) => ({
      ...section,
      items: section.items.filter((item) => (item.editions?.includes(edition) ?? true) && available.has(item.key)),
    }))
    .filter((section) => section.items.length > 0);
}

/** Where the tenant index lands (spec §2.3). */
export function firstSidebarPath(edition: Edition, available: ReadonlySet<SidebarItemKey>): string {
  const first = visibleSidebar(edition, available)[0]?.items[0];
  if (!first) throw new Error('First sidebar item not found');
  return sidebarItemPath(first);
}
