import { invalidFieldSchema } from '@gatehouse/schemas';
import { useCallback } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../../api/client.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';

export type FieldMessage = { field: string; message: string };

/**
 * Where a refused save belongs in the form. A 400 `guard.invalid_input` lists the failing fields (API paths such as
 * `oidcClientMetadata.redirectUris.0`), which `toFormPath` turns into form paths; a 422 whose code concerns one field
 * (`application.secret_name_in_use`) goes to `codeFields[code]` with the server's translated message. Fields the
 * form does not have are left out.
 */
export function serverFieldErrors(
  error: unknown,
  toFormPath: (apiPath: string) => string | undefined,
  codeFields: Readonly<Record<string, string>> = {},
): FieldMessage[] {
  if (!(error instanceof ApiError)) return [];
  const field = error.code ? codeFields[error.code] : undefined;
  if (field) return [{ field, message: error.message }];
  if (error.status !== 400 || error.code !== 'guard.invalid_input') return [];
  const fields = z.array(invalidFieldSchema).safeParse(error.data);
  if (!fields.success) return [];
  return fields.data.flatMap((item) => {
    const path = toFormPath(item.path);
    return path === undefined ? [] : [{ field: path, message: item.message }];
  });
}

/**
 * Shows a refused save beside its fields. Errors that name no field of the form get the toast their code was
 * silenced for (the mutations silence field codes so the message is not shown twice). Returns whether the error
 * was an API refusal it has shown; anything else is the caller's to rethrow.
 */
export function useServerErrorPlacement<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  toFormPath: (apiPath: string) => string | undefined,
  codeFields: Readonly<Record<string, string>> = {},
) {
  const toast = useToast();
  return useCallback(
    (error: unknown): boolean => {
      if (!(error instanceof ApiError) || error.status === 401) return false;
      const placed = serverFieldErrors(error, toFormPath, codeFields);
      placed.forEach(({ field, message }, index) => {
        setError(field as Path<Values>, { type: 'server', message }, { shouldFocus: index === 0 });
      });
      const wasSilenced =
        error.code === 'guard.invalid_input' || (error.code !== undefined && error.code in codeFields);
      if (placed.length === 0 && wasSilenced) {
        toast.error(error.message);
      }
      return true;
    },
    [setError, toFormPath, codeFields, toast],
  );
}
