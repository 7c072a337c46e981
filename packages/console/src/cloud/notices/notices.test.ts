import { describe, expect, it } from 'vitest';
import { shellNotices, showsMigrationNotice, showsProductionBanner } from './notices.ts';

describe('production-tenant banner (spec §2.11)', () => {
  it('shows when no tenant is a production tenant, including no tenant at all', () => {
    expect(showsProductionBanner([])).toBe(true);
    expect(showsProductionBanner([{ tag: 'development' }, { tag: 'development' }])).toBe(true);
  });
  it('hides once any tenant is a production tenant', () => {
    expect(showsProductionBanner([{ tag: 'development' }, { tag: 'production' }])).toBe(false);
  });
});

describe('development-tenant migration notice (spec §4)', () => {
  it('shows on a development tenant whose config has no readAt', () => {
    expect(showsMigrationNotice({ tag: 'development' }, {})).toBe(true);
    expect(showsMigrationNotice({ tag: 'development' }, { developmentTenantMigrationNotification: {} })).toBe(true);
  });
  it('never shows again once readAt is set, even to 0', () => {
    const read = { developmentTenantMigrationNotification: { readAt: 1_700_000_000_000 } };
    expect(showsMigrationNotice({ tag: 'development' }, read)).toBe(false);
    expect(
      showsMigrationNotice({ tag: 'development' }, { developmentTenantMigrationNotification: { readAt: 0 } }),
    ).toBe(false);
  });
  it('does not show on production tenants, nor while the config is unknown', () => {
    expect(showsMigrationNotice({ tag: 'production' }, {})).toBe(false);
    expect(showsMigrationNotice({ tag: 'development' }, undefined)).toBe(false);
    expect(showsMigrationNotice(undefined, {})).toBe(false);
  });
});

describe('the shell notices together (spec §2.4)', () => {
  const development = { tag: 'development', isSuspended: false } as const;
  it('a suspended tenant shows its page and no other notice', () => {
    expect(
      shellNotices({
        tenants: [development],
        isLoaded: true,
        currentTenant: { ...development, isSuspended: true },
        config: {},
      }),
    ).toEqual({ isSuspended: true, showsBanner: false, showsMigration: false });
  });
  it('otherwise the banner waits for the tenant list, and the notice for the config', () => {
    expect(shellNotices({ tenants: [], isLoaded: false, currentTenant: development, config: undefined })).toEqual({
      isSuspended: false,
      showsBanner: false,
      showsMigration: false,
    });
    expect(shellNotices({ tenants: [development], isLoaded: true, currentTenant: development, config: {} })).toEqual({
      isSuspended: false,
      showsBanner: true,
      showsMigration: true,
    });
  });
});
