import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { toastApiError } from '../../app/query-client.ts';
import { toaster } from '../../app/toaster.ts';
import { parseQuotaExceeded, QUOTA_EXCEEDED_CODE, quotaExceededStore, raiseIfQuotaExceeded } from './quota-exceeded.ts';

const refusal = (data: unknown) => new ApiError(403, 'Quota exceeded.', QUOTA_EXCEEDED_CODE, data);

afterEach(() => {
  quotaExceededStore.dismiss();
  vi.restoreAllMocks();
});

describe('quota refusal parsing (spec §8)', () => {
  it('reads the refused quota keys with their limit and usage', () => {
    expect(parseQuotaExceeded(refusal({ quota: { applicationsLimit: { limit: 3, usage: 3 } } }))).toEqual([
      { key: 'applicationsLimit', limit: 3, usage: 3 },
    ]);
    expect(
      parseQuotaExceeded(
        refusal({ quota: { hooksLimit: { limit: 1, usage: 1 }, organizationsLimit: { limit: false, usage: 0 } } }),
      ),
    ).toEqual([
      { key: 'hooksLimit', limit: 1, usage: 1 },
      { key: 'organizationsLimit', limit: false, usage: 0 },
    ]);
  });
  it('refuses malformed data, unknown keys only, other codes and other errors', () => {
    expect(parseQuotaExceeded(refusal(undefined))).toBeUndefined();
    expect(parseQuotaExceeded(refusal({ quota: { applicationsLimit: { limit: '3', usage: 3 } } }))).toBeUndefined();
    expect(parseQuotaExceeded(refusal({ quota: { applicationsLimit: { limit: 3 } } }))).toBeUndefined();
    expect(parseQuotaExceeded(refusal({ quota: { nonsense: { limit: 3, usage: 3 } } }))).toBeUndefined();
    expect(parseQuotaExceeded(refusal({ quota: {} }))).toBeUndefined();
    const other = new ApiError(403, 'No.', 'auth.forbidden', { quota: { applicationsLimit: { limit: 3, usage: 3 } } });
    expect(parseQuotaExceeded(other)).toBeUndefined();
    expect(parseQuotaExceeded(new Error('boom'))).toBeUndefined();
  });
});

describe('the query client on a quota refusal', () => {
  // The cloud build's check; these tests run with the OSS build's constants.
  const cloud = raiseIfQuotaExceeded;
  it('raises the quota modal instead of the toast, even where the caller silenced errors', () => {
    const toast = vi.spyOn(toaster, 'error');
    toastApiError(refusal({ quota: { applicationsLimit: { limit: 3, usage: 3 } } }), undefined, cloud);
    expect(quotaExceededStore.get()).toEqual([{ key: 'applicationsLimit', limit: 3, usage: 3 }]);
    quotaExceededStore.dismiss();
    toastApiError(
      refusal({ quota: { rolesLimit: { limit: 1, usage: 1 }, userRolesLimit: { limit: 1, usage: 1 } } }),
      true,
      cloud,
    );
    expect(quotaExceededStore.get()).toEqual([{ key: 'userRolesLimit', limit: 1, usage: 1 }]);
    expect(toast).not.toHaveBeenCalled();
  });
  it('falls back to the generic toast when the data is malformed', () => {
    const toast = vi.spyOn(toaster, 'error');
    toastApiError(refusal({ quota: 'applicationsLimit' }), undefined, cloud);
    expect(quotaExceededStore.get()).toBeUndefined();
    expect(toast).toHaveBeenCalledWith('Quota exceeded.');
  });
  it('toasts it like any refusal in the OSS build, which has no quotas', () => {
    const toast = vi.spyOn(toaster, 'error');
    toastApiError(refusal({ quota: { applicationsLimit: { limit: 3, usage: 3 } } }), undefined);
    expect(quotaExceededStore.get()).toBeUndefined();
    expect(toast).toHaveBeenCalledWith('Quota exceeded.');
  });
  it('notifies subscribers and lets the modal dismiss itself', () => {
    const listener = vi.fn();
    const unsubscribe = quotaExceededStore.subscribe(listener);
    quotaExceededStore.raise([{ key: 'hooksLimit', limit: 1, usage: 1 }]);
    quotaExceededStore.dismiss();
    unsubscribe();
    quotaExceededStore.raise([{ key: 'hooksLimit', limit: 1, usage: 1 }]);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
