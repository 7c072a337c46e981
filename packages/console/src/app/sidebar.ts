import type { Edition } from '@gatehouse/schemas';
import {
  AppWindow,
  BookOpen,
  Braces,
  BriefcaseBusiness,
  Building2,
  type IconNode,
  IdCard,
  KeyRound,
  LayoutDashboard,
  LayoutTemplate,
  MessageCircle,
  Palette,
  Plug,
  Rocket,
  ScrollText,
  Server,
  Settings,
  ShieldBan,
  ShieldCheck,
  Users,
  Webhook,
} from 'lucide';
import type { SidebarItemKey } from '../components/routing/area.ts';
import type common from '../i18n/locales/en/common.json';
import { contactRows, externalLinks } from './external-links.ts';

type SectionKey = keyof typeof common.sidebar.sections;
type MoreKey = keyof typeof common.sidebar.more;

/**
 * An internal link with an active state; its path is made from its key (spec §2.3). Its icon is lucide's shape data
 * (drawn by the kit's `SetIcon`), imported by name so only these are bundled.
 */
export type SidebarItem = { key: SidebarItemKey; icon: IconNode; editions?: readonly Edition[] };
export type SidebarSection = { key: SectionKey; items: readonly SidebarItem[] };

/** The other two row kinds of spec §2.3: an external link opened in a new tab, and a modal opener. */
export type SidebarExtraRow =
  | { kind: 'external'; key: MoreKey; icon: IconNode; href: string }
  | { kind: 'modal'; key: MoreKey; icon: IconNode; modal: 'contact' };

/** Spec §2.3, complete and in order. Which items show depends on the edition and on the areas that exist. */
export const sidebar: readonly SidebarSection[] = [
  {
    key: 'overview',
    items: [
      { key: 'get_started', icon: Rocket },
      { key: 'dashboard', icon: LayoutDashboard },
    ],
  },
  {
    key: 'authentication',
    items: [
      { key: 'applications', icon: AppWindow },
      { key: 'sign_in_experience', icon: Palette },
      { key: 'mfa', icon: ShieldCheck },
      { key: 'security', icon: ShieldBan },
      { key: 'connectors', icon: Plug },
      { key: 'enterprise_sso', icon: BriefcaseBusiness },
    ],
  },
  {
    key: 'authorization',
    items: [
      { key: 'api_resources', icon: Server },
      { key: 'roles', icon: IdCard },
      { key: 'organization_template', icon: LayoutTemplate },
    ],
  },
  {
    key: 'users',
    items: [
      { key: 'organizations', icon: Building2 },
      { key: 'users', icon: Users },
    ],
  },
  {
    key: 'developer',
    items: [
      { key: 'signing_keys', icon: KeyRound },
      { key: 'customize_jwt', icon: Braces },
      { key: 'webhooks', icon: Webhook },
      { key: 'audit_logs', icon: ScrollText },
    ],
  },
  { key: 'tenant', items: [{ key: 'tenant_settings', icon: Settings, editions: ['cloud'] }] },
];

/** Below the sections: the documentation (new tab) and the contact dialog, each when its links are configured. */
export function sidebarExtraRows(links: typeof externalLinks = externalLinks): SidebarExtraRow[] {
  return [
    ...(links.docs ? [{ kind: 'external' as const, key: 'docs' as const, icon: BookOpen, href: links.docs }] : []),
    ...(contactRows(links).length
      ? [{ kind: 'modal' as const, key: 'contact_us' as const, icon: MessageCircle, modal: 'contact' as const }]
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
