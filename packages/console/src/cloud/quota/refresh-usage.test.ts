import type { Tenant } from '@gatehouse/schemas';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { billingKeys } from '../../api/billing.ts';
import { cloudKeys } from '../../api/tenants.ts';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import { createUsageRefresher, onSuccessfulWrites } from './refresh-usage.ts';

function setup(local: Tenant[]) {
  const client = new QueryClient();
  client.setQueryData(cloudKeys.tenants, local);
  const updateTenant = vi.fn((id: string, patch: Partial<Tenant>) =>
    client.setQueryData<Tenant[]>(cloudKeys.tenants, (list) =>
      list?.map((tenant) => (tenant.id === id ? { ...tenant, ...patch } : tenant)),
    ),
  );
  return { client, updateTenant };
}

describe('refresh of quota and usage after writes (spec §4)', () => {
  it('merges only the billing fields of tenants still in the local list', async () => {
    const { client, updateTenant } = setup([tenantFixture('a', { name: 'Renamed locally' }), tenantFixture('b')]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const fresh = [
      tenantFixture('a', { name: 'Old name', usage: { activeUsers: 7, tokenUsage: 9 }, openInvoices: [] }),
      tenantFixture('b'),
      tenantFixture('gone', { usage: { activeUsers: 1, tokenUsage: 1 } }),
    ];
    await createUsageRefresher(client, updateTenant, async () => fresh)('a');

    expect(invalidate).toHaveBeenCalledWith({ queryKey: billingKeys.usage('a') });
    // 'b' did not change and 'gone' was left locally: neither is touched.
    expect(updateTenant).toHaveBeenCalledTimes(1);
    const list = client.getQueryData<Tenant[]>(cloudKeys.tenants) ?? [];
    expect(list.map((tenant) => [tenant.id, tenant.name, tenant.usage.activeUsers])).toEqual([
      ['a', 'Renamed locally', 7],
      ['b', 'Tenant b', 0],
    ]);
  });

  it('does not read the usage of a tenant the write deleted or left (issue 26)', async () => {
    const { client, updateTenant } = setup([tenantFixture('a'), tenantFixture('deleted')]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const refresh = createUsageRefresher(client, updateTenant, async () => {
      // The console drops the tenant locally once the DELETE answered, while the list is read again.
      client.setQueryData<Tenant[]>(cloudKeys.tenants, (list) => list?.filter((tenant) => tenant.id !== 'deleted'));
      return [tenantFixture('a')];
    });
    await refresh('deleted');
    expect(invalidate).not.toHaveBeenCalled();
    // Still in the server's list but gone locally (left a moment ago): not read either.
    await createUsageRefresher(client, updateTenant, async () => [tenantFixture('a'), tenantFixture('deleted')])(
      'deleted',
    );
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('coalesces writes during a refresh into one more run, and survives a failed read', async () => {
    const { client, updateTenant } = setup([tenantFixture('a')]);
    let release: (list: Tenant[]) => void = () => undefined;
    const load = vi
      .fn<() => Promise<Tenant[]>>()
      .mockImplementationOnce(() => new Promise((resolve) => (release = resolve)))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue([tenantFixture('a', { usage: { activeUsers: 3, tokenUsage: 0 } })]);
    const refresh = createUsageRefresher(client, updateTenant, load);
    const first = refresh('a');
    void refresh('a');
    void refresh('a');
    release([tenantFixture('a')]);
    await first;
    expect(load).toHaveBeenCalledTimes(2);
    await refresh('a');
    expect(load).toHaveBeenCalledTimes(3);
    expect(client.getQueryData<Tenant[]>(cloudKeys.tenants)?.[0]?.usage.activeUsers).toBe(3);
  });

  it('hears successful mutations only', async () => {
    const client = new QueryClient();
    const onWrite = vi.fn();
    const stop = onSuccessfulWrites(client, onWrite);
    const cache = client.getMutationCache();
    await cache.build(client, { mutationFn: async () => 'ok' }).execute(undefined);
    await cache
      .build(client, { mutationFn: async () => Promise.reject(new Error('refused')) })
      .execute(undefined)
      .catch(() => undefined);
    expect(onWrite).toHaveBeenCalledTimes(1);
    stop();
    await cache.build(client, { mutationFn: async () => 'ok' }).execute(undefined);
    expect(onWrite).toHaveBeenCalledTimes(1);
  });
});
