import { isRedactionMarker, isSecretField, type LogPayload, redactSecrets } from '@gatehouse/schemas';

/** How one value moved between the before and after images of an admin write. */
export type ChangeKind = 'added' | 'removed' | 'changed';

/**
 * One changed value of an admin write, its values written out for reading ('' stands for none). `field` is the path
 * into the entity (`customData.plan`, `config.headers`), so a change deep in nested JSON names exactly what changed.
 * `isHidden` marks a secret whose value is never shown, only that it changed.
 */
export type LogChange = { field: string; kind: ChangeKind; before: string; after: string; isHidden: boolean };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as text: strings as they are, everything else as compact JSON; null and absent read as none (''). An empty
 * string is a value, not none, so it shows as "" (a created role with no description reads as added "").
 */
export function changeValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

function isAbsent(value: unknown): boolean {
  return value === null || value === undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Leaf-level differences between two values: objects are walked key by key, anything else compares whole. */
function diffValues(
  path: string,
  before: unknown,
  after: unknown,
  into: LogChange[],
  isSecret: boolean,
  hidden: string,
): void {
  if (isRecord(before) && isRecord(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const name of names) {
      diffValues(`${path}.${name}`, before[name], after[name], into, isSecret || isSecretField(name), hidden);
    }
    return;
  }
  if (sameValue(before ?? null, after ?? null)) return;
  const kind: ChangeKind = isAbsent(before) ? 'added' : isAbsent(after) ? 'removed' : 'changed';
  const isHidden = isSecret && !(isRedactionMarker(before) && isRedactionMarker(after));
  // A value shown whole (a list, an object that appeared) is redacted by the payload's rule, so the two views agree.
  into.push({
    field: path,
    kind,
    before: isHidden ? '' : changeValueText(redactSecrets(before, hidden)),
    after: isHidden ? '' : changeValueText(redactSecrets(after, hidden)),
    isHidden,
  });
}

/** Whether a value has a secret somewhere in it (the rule would hide something). */
function holdsSecret(value: unknown): boolean {
  return JSON.stringify(redactSecrets(value, '\u0000')) !== JSON.stringify(value);
}

/**
 * What an admin write changed. The write path records `changes: [{field, before, after}]` (top-level fields, see the
 * server's services/diff.ts); each is unfolded here into the nested values that differ, so renaming one key of
 * custom data reads as that key, not as two blobs of JSON. Entries of another shape are skipped, not shown wrong.
 */
export function logChanges(payload: LogPayload, hidden: string): LogChange[] {
  const { changes } = payload;
  if (!Array.isArray(changes)) return [];
  const result: LogChange[] = [];
  for (const change of changes as unknown[]) {
    if (!isRecord(change) || typeof change.field !== 'string') continue;
    const found = result.length;
    diffValues(change.field, change.before, change.after, result, isSecretField(change.field), hidden);
    // The server recorded a change, yet every value left differs in nothing: what changed was redacted on both sides
    // (`customData.apiKey`), so say that the field changed without showing it.
    if (result.length === found && (holdsSecret(change.before) || holdsSecret(change.after))) {
      result.push({ field: change.field, kind: 'changed', before: '', after: '', isHidden: true });
    }
  }
  return result;
}
