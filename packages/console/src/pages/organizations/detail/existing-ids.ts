import { ApiError } from '../../../api/client.ts';

/** Ids the server reported as already there (422 with data.ids), so the picker stops offering them. */
export function existingIds(error: unknown, code: string): string[] {
  if (!(error instanceof ApiError) || error.code !== code) return [];
  const ids = (error.data as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}
