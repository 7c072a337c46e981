import { isDeepStrictEqual } from 'node:util';

export type FieldChange = { field: string; before: unknown; after: unknown };

/** Top-level fields whose values differ between two versions of an entity (either may be absent). */
export function diffFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldChange[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: FieldChange[] = [];
  for (const field of [...fields].sort()) {
    const previous = before?.[field];
    const next = after?.[field];
    if (!isDeepStrictEqual(previous, next)) changes.push({ field, before: previous ?? null, after: next ?? null });
  }
  return changes;
}
