import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { apiErrorDetails, toastApiError } from './query-client.ts';
import { toaster } from './toaster.ts';

const noQuota = () => false;

describe('error toasts (spec §8)', () => {
  it('keep the server’s details: the invalid fields, or the ids and names it refused', () => {
    const invalid = new ApiError(400, 'Invalid input.', 'guard.invalid_input', [
      { path: 'name', message: 'Too big: expected string to have <=128 characters', code: 'too_big' },
      { path: 'customData', message: 'Custom data is over 64 KiB', code: 'custom' },
    ]);
    expect(apiErrorDetails(invalid)).toBe(
      'name: Too big: expected string to have <=128 characters; customData: Custom data is over 64 KiB',
    );
    const ids = new ApiError(422, 'Some related entities do not exist.', 'entity.relation_foreign_key_not_found', {
      ids: ['a', 'b', 'c', 'd', 'e'],
    });
    expect(apiErrorDetails(ids), 'three shown, the rest counted').toBe('a; b; c; +2');
    expect(apiErrorDetails(new ApiError(404, 'Not found.', 'entity.not_exists_with_id'))).toBeUndefined();
    expect(apiErrorDetails(new ApiError(401, 'No.', 'auth.unauthorized', { reason: 'missing' }))).toBeUndefined();
  });

  it('show them after the message', () => {
    const before = toaster.getSnapshot().length;
    toastApiError(
      new ApiError(422, 'Role names not found.', 'organization.role_names_not_found', { names: ['x'] }),
      undefined,
      noQuota,
    );
    const shown = toaster.getSnapshot().slice(before);
    expect(shown.map((toast) => toast.message)).toEqual(['Role names not found. (x)']);
    for (const toast of shown) toaster.dismiss(toast.id);
  });
});
