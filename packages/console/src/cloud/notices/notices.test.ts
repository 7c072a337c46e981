import { defaultAdminConsoleConfig } from '@gatehouse/schemas';
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

/** The config as the API answers it: the reference's flags, false until set, and the given fields. */
const configWith = (fields = {}) => ({ ...defaultAdminConsoleConfig, ...fields });

describe('development-tenant migration notice (spec §4)', () => {
  const migrated = configWith({ developmentTenantMigrationNotification: {} });
  it('shows on a development tenant the change migrated (its config holds the record) until readAt is set', () => {
    expect(showsMigrationNotice({ tag: 'development' }, migrated)).toBe(true);
  });
  it('never shows on a tenant made after the change: its config has no record (issue 40, item 16)', () => {
    expect(showsMigrationNotice({ tag: 'development' }, configWith())).toBe(false);
  });
  it('never shows again once readAt is set, even to 0', () => {
    const read = configWith({ developmentTenantMigrationNotification: { readAt: 1_700_000_000_000 } });
    expect(showsMigrationNotice({ tag: 'development' }, read)).toBe(false);
    expect(
      showsMigrationNotice(
        { tag: 'development' },
        configWith({ developmentTenantMigrationNotification: { readAt: 0 } }),
      ),
    ).toBe(false);
  });
  it('does not show on production tenants, nor while the config is unknown', () => {
    expect(showsMigrationNotice({ tag: 'production' }, migrated)).toBe(false);
    expect(showsMigrationNotice({ tag: 'development' }, undefined)).toBe(false);
    expect(showsMigrationNotice(undefined, migrated)).toBe(false);
  });
});

describe('the shell notices together (spec §2.4, issue 40 item 16)', () => {
  const development = { tag: 'development', isSuspended: false } as const;
  const migrated = configWith({ developmentTenantMigrationNotification: {} });
  const settled = { isLoaded: true, isConfigSettled: true };

  it('a suspended tenant shows its page and no other notice', () => {
    expect(
      shellNotices({
        ...settled,
        tenants: [development],
        currentTenant: { ...development, isSuspended: true },
        config: migrated,
      }),
    ).toEqual({ isSuspended: true, banner: undefined });
  });

  it("a new account's first tenant gets one banner, the production offer, and no migration notice", () => {
    expect(
      shellNotices({ ...settled, tenants: [development], currentTenant: development, config: configWith() }),
    ).toEqual({
      isSuspended: false,
      banner: 'production',
    });
  });

  it('a migrated tenant gets the notice alone, then the production banner once it is read', () => {
    expect(shellNotices({ ...settled, tenants: [development], currentTenant: development, config: migrated })).toEqual({
      isSuspended: false,
      banner: 'migration',
    });
    const read = configWith({ developmentTenantMigrationNotification: { readAt: 1 } });
    expect(shellNotices({ ...settled, tenants: [development], currentTenant: development, config: read })).toEqual({
      isSuspended: false,
      banner: 'production',
    });
  });

  it('no banner with a production tenant and nothing to read', () => {
    const production = { tag: 'production', isSuspended: false } as const;
    expect(
      shellNotices({ ...settled, tenants: [development, production], currentTenant: production, config: undefined }),
    ).toEqual({ isSuspended: false, banner: undefined });
  });

  it('waits for the tenant list and for a development tenant’s config, so one banner never replaces another', () => {
    expect(
      shellNotices({
        tenants: [],
        isLoaded: false,
        isConfigSettled: true,
        currentTenant: development,
        config: configWith(),
      }),
    ).toEqual({ isSuspended: false, banner: undefined });
    expect(
      shellNotices({
        tenants: [development],
        isLoaded: true,
        isConfigSettled: false,
        currentTenant: development,
        config: undefined,
      }),
    ).toEqual({ isSuspended: false, banner: undefined });
    // A config that failed to load settles it: no notice, the banner.
    expect(shellNotices({ ...settled, tenants: [development], currentTenant: development, config: undefined })).toEqual(
      { isSuspended: false, banner: 'production' },
    );
  });
});
