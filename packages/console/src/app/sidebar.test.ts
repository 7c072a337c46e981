import { describe, expect, it } from 'vitest';
import type { SidebarItemKey } from '../components/routing/area.ts';
import { contactRows } from './external-links.ts';
import { firstSidebarPath, sidebar, sidebarExtraRows, sidebarItemPath, visibleSidebar } from './sidebar.ts';

/** Spec §2.3, copied by hand so a change of the data has to agree with the spec. */
const specOrder = [
  ['overview', ['get_started', 'dashboard']],
  ['authentication', ['applications', 'sign_in_experience', 'mfa', 'security', 'connectors', 'enterprise_sso']],
  ['authorization', ['api_resources', 'roles', 'organization_template']],
  ['users', ['organizations', 'users']],
  ['developer', ['signing_keys', 'customize_jwt', 'webhooks', 'audit_logs']],
  ['tenant', ['tenant_settings']],
] as const;

const noLinks = {
  docs: undefined,
  communityChat: undefined,
  codeHost: undefined,
  issues: undefined,
  releases: undefined,
  supportEmail: undefined,
  meeting: undefined,
  pricing: undefined,
};
const allItems = new Set<SidebarItemKey>(specOrder.flatMap(([, items]) => items));
const keys = (sections: ReturnType<typeof visibleSidebar>) =>
  sections.map((section) => [section.key, section.items.map((item) => item.key)]);

describe('sidebar data', () => {
  it('holds every section and item of spec §2.3, in order', () => {
    expect(sidebar.map((section) => [section.key, section.items.map((item) => item.key)])).toEqual(specOrder);
  });

  it('gives every item and every row below the sections an icon of its own (issue 26)', () => {
    const items = sidebar.flatMap((section) => section.items);
    const rows = sidebarExtraRows({ ...noLinks, docs: 'https://docs.example.com', supportEmail: 'help@example.com' });
    const icons = [...items, ...rows].map((entry) => entry.icon);
    for (const icon of icons) {
      expect(icon.length, 'an icon draws at least one shape').toBeGreaterThan(0);
    }
    expect(new Set(icons).size, 'no two entries share an icon').toBe(icons.length);
  });

  it('shows tenant settings only in the cloud edition', () => {
    expect(keys(visibleSidebar('cloud', allItems))).toEqual(specOrder);
    expect(keys(visibleSidebar('oss', allItems))).toEqual(specOrder.filter(([section]) => section !== 'tenant'));
  });

  it('shows only items whose area is registered, keeping the spec order and dropping empty sections', () => {
    const available = new Set<SidebarItemKey>(['webhooks', 'roles', 'get_started']);
    expect(keys(visibleSidebar('oss', available))).toEqual([
      ['overview', ['get_started']],
      ['authorization', ['roles']],
      ['developer', ['webhooks']],
    ]);
    expect(keys(visibleSidebar('oss', new Set(['tenant_settings'])))).toEqual([]);
  });

  it('makes each path from the key', () => {
    expect(sidebarItemPath({ key: 'sign_in_experience' })).toBe('sign-in-experience');
    expect(sidebarItemPath({ key: 'api_resources' })).toBe('api-resources');
  });

  it('lands the tenant index on the first visible item, or fails with the spec error', () => {
    expect(firstSidebarPath('oss', new Set(['audit_logs', 'applications']))).toBe('applications');
    expect(firstSidebarPath('cloud', allItems)).toBe('get-started');
    expect(() => firstSidebarPath('oss', new Set(['tenant_settings']))).toThrow('First sidebar item not found');
  });

  it('shows the docs link and the contact opener below the sections only when the build configured them', () => {
    const none = noLinks;
    expect(sidebarExtraRows(none), 'no link to a place that does not exist').toEqual([]);
    const all = { ...none, docs: 'https://docs.example.com', supportEmail: 'help@example.com' };
    expect(sidebarExtraRows(all).map((row) => row.kind)).toEqual(['external', 'modal']);
    expect(contactRows(all)).toEqual([{ key: 'email', href: 'mailto:help@example.com' }]);
    expect(
      contactRows({ ...none, meeting: 'https://cal.example.com', communityChat: 'https://chat.example.com' }),
    ).toEqual([
      { key: 'community', href: 'https://chat.example.com' },
      { key: 'meeting', href: 'https://cal.example.com' },
    ]);
  });
});
