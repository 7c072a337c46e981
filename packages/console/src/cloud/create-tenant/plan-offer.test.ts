import { basicPlans, MAX_FREE_TENANTS, type Sku } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../billing-format.ts';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { isFreeTenantLimitReached, offeredPlans, ownedFreeTenantCount } from './plan-offer.ts';

const skus: Sku[] = basicPlans.map((plan) => ({
  id: plan.id,
  name: plan.id,
  type: 'Basic',
  unitPrice: plan.unitPrice,
  quota: plan.quota,
  createdAt: 0,
  updatedAt: 0,
}));

const freeProduction = (id: string, createdAt = 10) =>
  tenantFixture(id, { tag: 'production', planId: 'Free', createdAt });
/** The account's first tenant (onboarding's), exempt from the count whatever its plan. */
const first = tenantFixture('first', { createdAt: 1 });

describe('offeredPlans', () => {
  it('keeps Free then Pro202411 of the Basic SKUs, in that order, whatever order the server sends', () => {
    expect(offeredPlans([...skus].reverse()).map((sku) => sku.id)).toEqual(['Free', 'Pro202411']);
  });

  it('leaves out an offered plan the server does not list', () => {
    expect(offeredPlans(skus.filter((sku) => sku.id !== 'Free')).map((sku) => sku.id)).toEqual(['Pro202411']);
  });
});

describe('the Free tenant limit', () => {
  const owned = Array.from({ length: MAX_FREE_TENANTS }, (_, index) => freeProduction(`f${index}`));

  it('is reached at MAX_FREE_TENANTS Free production tenants the user is admin of, besides their first', () => {
    expect(isFreeTenantLimitReached([first, ...owned.slice(1)])).toBe(false);
    expect(isFreeTenantLimitReached([first, ...owned])).toBe(true);
  });

  it('exempts the oldest admin tenant even when it is a Free production tenant', () => {
    const oldestFree = freeProduction('oldest', 0);
    expect(ownedFreeTenantCount([...owned.slice(1), oldestFree])).toBe(MAX_FREE_TENANTS - 1);
    expect(isFreeTenantLimitReached([...owned, oldestFree])).toBe(true);
  });

  it('does not count development tenants, paid tenants or tenants where the user is a collaborator', () => {
    const others = [
      tenantFixture('dev'),
      tenantFixture('pro', { tag: 'production', planId: 'Pro202411' }),
      tenantFixture('guest', { tag: 'production', planId: 'Free', role: 'collaborator' }),
    ];
    expect(ownedFreeTenantCount([first, ...owned.slice(1), ...others])).toBe(MAX_FREE_TENANTS - 1);
    expect(isFreeTenantLimitReached([first, ...owned.slice(1), ...others])).toBe(false);
  });
});

describe('the card price', () => {
  it('is the unit price in dollars in the interface language', () => {
    const pro = skus.find((sku) => sku.id === 'Pro202411');
    expect(formatMoney(pro?.unitPrice ?? -1, 'en')).toBe('$16.00');
    expect(formatMoney(pro?.unitPrice ?? -1, 'de')).toBe('16,00\u00a0$');
    expect(formatMoney(0, 'en')).toBe('$0.00');
  });
});
