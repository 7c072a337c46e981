import { MASKED_SECRET, type SecretBinding } from '@gatehouse/schemas';
import { useEffect, useMemo } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/react.tsx';

/**
 * A masked secret is bound to where it is sent (issue 39, item 3): the server refuses a config that keeps a secret
 * by its mask ({@link MASKED_SECRET}, "keep what is stored") while a destination field (a host, a port, an endpoint,
 * an issuer) changed. The form says so first: changing a destination empties each masked secret, to be entered again.
 */
export type { SecretBinding };

/** The issue code of a field refusal for a secret kept by its mask while its destination changed (server). */
export const SECRET_REQUIRED_ISSUE = 'secret_required';

export const noFields: ReadonlySet<string> = new Set();

function valueAt(values: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? Reflect.get(value, key) : undefined),
      values,
    );
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** As the server compares: empty is no value, text as it is sent (trimmed). */
const comparable = (value: unknown) => (isBlank(value) ? undefined : typeof value === 'string' ? value.trim() : value);

/** Whether a destination differs from the saved values. */
export function hasMovedDestination(binding: SecretBinding, saved: unknown, values: unknown): boolean {
  return binding.destinations.some((path) => comparable(valueAt(values, path)) !== comparable(valueAt(saved, path)));
}

/** The secrets to enter again: masked in the saved values, empty now, while a destination moved. */
export function secretsToRetype(binding: SecretBinding, saved: unknown, values: unknown): ReadonlySet<string> {
  if (!hasMovedDestination(binding, saved, values)) return noFields;
  const fields = binding.secrets.filter(
    (path) => valueAt(saved, path) === MASKED_SECRET && isBlank(valueAt(values, path)),
  );
  return fields.length === 0 ? noFields : new Set(fields);
}

const sameFields = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((field) => b.has(field));

/**
 * The words of a secret to enter again: the note under it, and the message for the server's `secret_required`
 * refusal (a `ServerErrorMapping`'s `issueMessages`). For a form that holds no mask itself (the Security
 * page's captcha key stays empty for "keep the stored one") and so needs no {@link useMaskedSecretGuard}.
 */
export function useMaskedSecretWords() {
  const { t } = useTranslation('components');
  const hint = t('masked_secret.retype_hint');
  return useMemo(() => ({ hint, issueMessages: { [SECRET_REQUIRED_ISSUE]: hint } }), [hint]);
}

/**
 * Keeps a form's masked secrets from being sent to a new destination: when the user changes a destination field, each
 * secret still holding the mask is emptied; when every destination is back to its saved value, a secret emptied so
 * and not typed since gets its mask back. `onRetyping` hears the secrets to enter again (for their note and their
 * check). The saved values are the form's defaults, so a reset (after a save) moves them along. Returns the words the
 * form shows: the note under such a secret, and the message for the server's `secret_required` refusal.
 */
export function useMaskedSecretGuard<Values extends FieldValues>(
  form: Pick<UseFormReturn<Values, never, never>, 'subscribe' | 'setValue' | 'getValues'>,
  binding: SecretBinding,
  onRetyping: (fields: ReadonlySet<string>) => void,
) {
  const { subscribe, setValue, getValues } = form;

  useEffect(() => {
    const emptied = new Set<string>();
    let retyping = noFields;
    const set = (path: string, value: string) =>
      setValue(path as Path<Values>, value as PathValue<Values, Path<Values>>, { shouldDirty: true });
    return subscribe({
      formState: { values: true },
      callback: ({ name, defaultValues }) => {
        if (name !== undefined && binding.destinations.includes(name)) {
          const isMoved = hasMovedDestination(binding, defaultValues, getValues());
          for (const path of binding.secrets) {
            const value = valueAt(getValues(), path);
            if (isMoved && value === MASKED_SECRET) {
              emptied.add(path);
              set(path, '');
            } else if (!isMoved && emptied.has(path)) {
              emptied.delete(path);
              if (isBlank(value) && valueAt(defaultValues, path) === MASKED_SECRET) set(path, MASKED_SECRET);
            }
          }
        }
        const next = secretsToRetype(binding, defaultValues, getValues());
        if (!sameFields(next, retyping)) {
          retyping = next;
          onRetyping(next);
        }
      },
    });
  }, [subscribe, setValue, getValues, binding, onRetyping]);

  return useMaskedSecretWords();
}
