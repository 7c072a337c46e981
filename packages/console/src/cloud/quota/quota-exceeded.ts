import { type QuotaExceededData, type QuotaKey, quotaKeys } from '@gatehouse/schemas';
import { ApiError } from '../../api/client.ts';
import { boolean, count, either, guard, nullable, object, recordOf } from '../../api/json-guards.ts';

/**
 * Spec §8 quota errors: the server refuses a create past the plan's limit with 403 `subscription.quota_exceeded`
 * and `data: {quota: {<key>: {limit, usage}}}`. The query client hands such errors here instead of toasting them,
 * and the cloud shell shows the quota modal from this small store (in OSS the server never sends the code).
 */
export const QUOTA_EXCEEDED_CODE = 'subscription.quota_exceeded';

/**
 * quotaExceededDataSchema of the shared contract, without zod: the query client checks every error with it, on the
 * first page too (api/json-guards.ts).
 */
export const quotaExceededDataGuard = guard<QuotaExceededData>(
  object({ quota: recordOf(object({ limit: either(count, nullable(boolean)), usage: count })) }),
);

export type ExceededQuota = { key: QuotaKey; limit: QuotaExceededData['quota'][string]['limit']; usage: number };

/** The refused quotas of an error, or undefined when it is not a quota refusal with readable data. */
export function parseQuotaExceeded(error: unknown): ExceededQuota[] | undefined {
  if (!(error instanceof ApiError) || error.code !== QUOTA_EXCEEDED_CODE) return undefined;
  const parsed = quotaExceededDataGuard.safeParse(error.data);
  if (!parsed.success) return undefined;
  const known = new Set<string>(quotaKeys);
  const quotas = Object.entries(parsed.data.quota).flatMap(([key, value]) =>
    known.has(key) ? [{ key: key as QuotaKey, limit: value.limit, usage: value.usage }] : [],
  );
  return quotas.length > 0 ? quotas : undefined;
}

type Listener = () => void;
let current: ExceededQuota[] | undefined;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

export const quotaExceededStore = {
  /** What the modal shows; the latest refusal replaces an earlier one still open. */
  get: (): ExceededQuota[] | undefined => current,
  raise(quotas: ExceededQuota[]): void {
    current = quotas;
    emit();
  },
  dismiss(): void {
    current = undefined;
    emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/**
 * The query client's hook: a readable quota refusal raises the modal and is not toasted (true); anything else,
 * including a quota code with malformed data, falls back to the generic error toast (false).
 */
export function raiseIfQuotaExceeded(error: unknown): boolean {
  const quotas = parseQuotaExceeded(error);
  if (!quotas) return false;
  quotaExceededStore.raise(quotas);
  return true;
}
