import type { LogPayload } from '@gatehouse/schemas';

/** One changed field of an admin write, its values written out for reading ('' stands for none). */
export type LogChange = { field: string; before: string; after: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as text: strings as they are, everything else as compact JSON; null and absent read as none (''). */
export function changeValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * The write path records `changes: [{field, before, after}]` for admin writes; older or other entries may lack it or
 * hold something else, so anything that is not that shape is skipped rather than shown wrong.
 */
export function logChanges(payload: LogPayload): LogChange[] {
  const { changes } = payload;
  if (!Array.isArray(changes)) return [];
  return changes.flatMap((change: unknown) =>
    isRecord(change) && typeof change.field === 'string'
      ? [{ field: change.field, before: changeValueText(change.before), after: changeValueText(change.after) }]
      : [],
  );
}
