// @vitest-environment happy-dom
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { ToastProvider } from '../Toast/ToastProvider.tsx';
import { createToaster } from '../Toast/toaster.ts';
import { createTestI18n } from '../testing/render.tsx';
import { FormValidationError } from './form-validation-error.ts';
import { handleSubmitError, useSubmitHandler } from './use-submit-handler.ts';

function setup() {
  createTestI18n(); // Registers an English i18next with react-i18next for the provider's strings.
  const toaster = createToaster();
  const error = vi.spyOn(toaster, 'error');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ToastProvider toaster={toaster}>{children}</ToastProvider>
  );
  const { result } = renderHook(() => useSubmitHandler(), { wrapper });
  return { submitWith: result.current, toastError: error };
}

describe('submitWith (spec §8)', () => {
  it('passes the form values to the handler', async () => {
    const { submitWith } = setup();
    const save = vi.fn();
    await submitWith(save)({ name: 'x' });
    expect(save).toHaveBeenCalledWith({ name: 'x' });
  });

  it.each([400, 403, 404, 422, 500])('swallows an ApiError %i: the global error toast shows it', async (status) => {
    const { submitWith, toastError } = setup();
    const submit = submitWith(() => Promise.reject(new ApiError(status, 'Bad')));
    await expect(submit()).resolves.toBeUndefined();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('rethrows a 401 so the session handling sees it', async () => {
    const { submitWith } = setup();
    const unauthorized = new ApiError(401, 'Unauthorized');
    await expect(submitWith(() => Promise.reject(unauthorized))()).rejects.toBe(unauthorized);
  });

  it('shows a FormValidationError as an error toast', async () => {
    const { submitWith, toastError } = setup();
    await submitWith(() => {
      throw new FormValidationError('Pick at least one scope');
    })();
    expect(toastError).toHaveBeenCalledExactlyOnceWith('Pick at least one scope');
  });

  it('rethrows anything else', async () => {
    const { submitWith } = setup();
    const bug = new TypeError('x is undefined');
    await expect(submitWith(() => Promise.reject(bug))()).rejects.toBe(bug);
  });

  it('reports whether it handled an error', () => {
    const toast = { error: vi.fn() };
    expect(handleSubmitError(new ApiError(400, 'x'), toast)).toBe(true);
    expect(handleSubmitError(new ApiError(401, 'x'), toast)).toBe(false);
    expect(handleSubmitError(new Error('x'), toast)).toBe(false);
  });
});
