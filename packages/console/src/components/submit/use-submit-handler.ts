import { useCallback } from 'react';
import { ApiError } from '../../api/client.ts';
import { useToast } from '../Toast/ToastProvider.tsx';
import { FormValidationError } from './form-validation-error.ts';

type Toast = Pick<ReturnType<typeof useToast>, 'error'>;

/**
 * Spec §8: what a failed submit does. HTTP errors other than 401 are swallowed, because the global error toast has
 * shown them already; a FormValidationError becomes an error toast; anything else (401 included, which must reach
 * the session handling) is rethrown. Returns true when the error was handled.
 */
export function handleSubmitError(error: unknown, toast: Toast): boolean {
  if (error instanceof ApiError) return error.status !== 401;
  if (error instanceof FormValidationError) {
    toast.error(error.message);
    return true;
  }
  return false;
}

/**
 * `const submitWith = useSubmitHandler();` then `handleSubmit(submitWith(async (values) => …))`: the form's save
 * logic stays free of error plumbing, and every form reacts to failures alike.
 */
export function useSubmitHandler() {
  const toast = useToast();
  return useCallback(
    <Args extends unknown[]>(handler: (...args: Args) => unknown) =>
      async (...args: Args): Promise<void> => {
        try {
          await handler(...args);
        } catch (error) {
          if (!handleSubmitError(error, toast)) throw error;
        }
      },
    [toast],
  );
}
