import { invalidFieldSchema } from '@gatehouse/schemas';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { FormValidationError } from './form-validation-error.ts';

/** Where a refusal code goes: a field, with the server's (translated) message or one the form words itself. */
export type CodeField<Values extends FieldValues> =
  | Path<Values>
  | { field: Path<Values>; message: (error: ApiError) => string };

/** How a form reads the server's `{code, message, data}` refusals. */
export type ServerErrorMapping<Values extends FieldValues> = {
  /** Codes about one field: a unique name in use (422), a password the policy rejects. */
  codes?: { readonly [code: string]: CodeField<Values> };
  /**
   * A 400 `guard.invalid_input` lists the failing fields in `data` by API path (`oidcClientMetadata.redirectUris.0`);
   * this gives the form's path of one, or undefined for a field the form does not have. Without it such a list is
   * not placed (the global toast shows the message).
   */
  paths?: (apiPath: string) => string | undefined;
  /**
   * Codes whose `data` is such a list of `{path, message}`, read with `paths`: `guard.invalid_input` unless given
   * (a connector's config refusal is `connector.invalid_config_guard`).
   */
  listCodes?: readonly string[];
  /**
   * The form's own (translated) message for a listed field's issue `code`, instead of the server's English one: the
   * server words some issues for the console to say (`secret_required`: a secret kept by its mask while its host
   * changed).
   */
  issueMessages?: { readonly [issueCode: string]: string };
  /**
   * What to do with a refusal the mapping claims but which names no field of this form, instead of throwing it as a
   * FormValidationError (its toast): the SSO connection tab shows an IdP it could not read in its result card.
   */
  onUnplaced?: (error: ApiError) => void;
};

export type FieldMessage = { field: string; message: string };

const invalidFields = z.array(invalidFieldSchema);
const defaultListCodes = ['guard.invalid_input'];

/** The field errors a refusal holds for a form, in the server's order; none for anything else. */
export function serverFieldErrors<Values extends FieldValues>(
  error: unknown,
  { codes = {}, paths, listCodes = defaultListCodes, issueMessages = {} }: ServerErrorMapping<Values> = {},
): FieldMessage[] {
  if (!(error instanceof ApiError)) return [];
  const target = error.code && Object.hasOwn(codes, error.code) ? codes[error.code] : undefined;
  if (typeof target === 'string') return [{ field: target, message: error.message }];
  if (target) return [{ field: target.field, message: target.message(error) }];
  if (!paths || error.status !== 400 || !error.code || !listCodes.includes(error.code)) return [];
  const fields = invalidFields.safeParse(error.data);
  if (!fields.success) return [];
  return fields.data.flatMap((item) => {
    const field = paths(item.path);
    if (field === undefined) return [];
    const own = Object.hasOwn(issueMessages, item.code) ? issueMessages[item.code] : undefined;
    return [{ field, message: own ?? item.message }];
  });
}

/** Whether the mapping takes this refusal as its own; its mutation then silences the global toast for it. */
function isClaimed(
  error: ApiError,
  { codes = {}, paths, listCodes = defaultListCodes }: ServerErrorMapping<FieldValues>,
): boolean {
  if (error.code === undefined) return false;
  return Object.hasOwn(codes, error.code) || (paths !== undefined && listCodes.includes(error.code));
}

const idsData = z.object({ ids: z.array(z.string()) });

/**
 * The ids a refusal with this code lists in `data.ids` (a 422 '…_exists': entries someone else added meanwhile), so a
 * picker can mark them; undefined for any other error.
 */
export function serverErrorIds(error: unknown, code: string): string[] | undefined {
  if (!(error instanceof ApiError) || error.code !== code) return undefined;
  const data = idsData.safeParse(error.data);
  return data.success ? data.data.ids : undefined;
}

/**
 * Spec §8, the one way a form shows the server's refusal of a save: the fields it names get their messages (the first
 * one takes focus) and it returns true. Anything else returns false for the caller to rethrow to `submitWith`, which
 * leaves API errors to the global toast. A refusal the mapping claims whose fields this form does not have (its toast
 * silenced so it is not shown twice) goes to `onUnplaced`, or without one is thrown as a FormValidationError, which
 * `submitWith` shows as a toast.
 *
 *   catch (error) { if (!applyServerErrors(form, error, { codes: { 'role.name_in_use': 'name' } })) throw error; }
 */
export function applyServerErrors<Values extends FieldValues>(
  form: { setError: UseFormSetError<Values> },
  error: unknown,
  mapping: ServerErrorMapping<Values> = {},
): boolean {
  if (!(error instanceof ApiError) || error.status === 401) return false;
  const placed = serverFieldErrors(error, mapping);
  placed.forEach(({ field, message }, index) => {
    form.setError(field as Path<Values>, { type: 'server', message }, { shouldFocus: index === 0 });
  });
  if (placed.length > 0) return true;
  if (!isClaimed(error, mapping as ServerErrorMapping<FieldValues>)) return false;
  if (!mapping.onUnplaced) throw new FormValidationError(error.message);
  mapping.onUnplaced(error);
  return true;
}
