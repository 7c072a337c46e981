import type { LogPayload } from '@gatehouse/schemas';

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
 * Names of fields that hold secrets. The server already leaves secrets out of what it audits; this is the second
 * line, so an entry written by an older or careless write path still never puts a secret on the screen.
 */
const secretName = /secret|password|passcode|signing_?key|private_?key|api_?key|credential/i;
/** Tokens only as whole names: `refreshTokenTtl` is a setting, `refreshToken` is a secret. */
const tokenName = /^(authorization|(access|refresh|id|bearer)?_?token)$/i;

export function isSecretField(name: string): boolean {
  return secretName.test(name) || tokenName.test(name);
}

/** Markers the server writes in place of a secret ('set', 'changed'…): words, not secrets, so they may show. */
const secretMarkers = new Set(['set', 'none', 'changed', 'previous', 'rotated', 'revealed']);

/** A copy of a value with the values of secret-named fields replaced (at any depth), for the raw payload view. */
export function redactSecrets(value: unknown, hidden: string): unknown {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, hidden));
  if (!isRecord(value)) return value;
  // A change entry of a secret field ({field: 'secret', before, after}) hides its values as well.
  const isSecretChange = typeof value.field === 'string' && isSecretField(value.field);
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => {
      const isSecret = isSecretField(name) || (isSecretChange && (name === 'before' || name === 'after'));
      return [name, isSecret && !isMarker(item) ? hidden : redactSecrets(item, hidden)];
    }),
  );
}

function isMarker(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && secretMarkers.has(value));
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
function diffValues(path: string, before: unknown, after: unknown, into: LogChange[], isSecret: boolean): void {
  if (isRecord(before) && isRecord(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const name of names) {
      diffValues(`${path}.${name}`, before[name], after[name], into, isSecret || isSecretField(name));
    }
    return;
  }
  if (sameValue(before ?? null, after ?? null)) return;
  const kind: ChangeKind = isAbsent(before) ? 'added' : isAbsent(after) ? 'removed' : 'changed';
  const isHidden = isSecret && !(isMarker(before) && isMarker(after));
  into.push({
    field: path,
    kind,
    before: isHidden ? '' : changeValueText(before),
    after: isHidden ? '' : changeValueText(after),
    isHidden,
  });
}

/**
 * What an admin write changed. The write path records `changes: [{field, before, after}]` (top-level fields, see the
 * server's services/diff.ts); each is unfolded here into the nested values that differ, so renaming one key of
 * custom data reads as that key, not as two blobs of JSON. Entries of another shape are skipped, not shown wrong.
 */
export function logChanges(payload: LogPayload): LogChange[] {
  const { changes } = payload;
  if (!Array.isArray(changes)) return [];
  const result: LogChange[] = [];
  for (const change of changes as unknown[]) {
    if (!isRecord(change) || typeof change.field !== 'string') continue;
    diffValues(change.field, change.before, change.after, result, isSecretField(change.field));
  }
  return result;
}
