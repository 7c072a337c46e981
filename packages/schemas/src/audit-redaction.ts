import { MASKED_SECRET } from './entities/connector.ts';

/**
 * The one rule for which audit-log values are secrets, shared by the server (which applies it to every admin write's
 * entry) and the console (which applies it again to the payload and to the changes it shows, for entries written
 * before the rule or by another path). A field is a secret when its name *ends* with a secret noun, so
 * `clientSecret`, `refreshToken`, `X-Api-Key` and `passwordEncrypted` are hidden while `signingKeyAlgorithm`,
 * `keyId`, `apiKeyName` and `refreshTokenTtl` (fields that merely mention a secret) are not.
 */

/** Secret nouns, as the last words of a field name (lower case, singular). */
const secretEndings: readonly (readonly string[])[] = [
  ['secret'],
  ['password'],
  ['passcode'],
  ['passphrase'],
  ['token'],
  ['credential'],
  ['authorization'],
  ['cookie'],
  ['apikey'],
  ['privatekey'],
  ['private', 'key'],
  ['private', 'jwk'],
  ['signing', 'key'],
  ['api', 'key'],
  ['access', 'key'],
  ['secret', 'key'],
  ['encryption', 'key'],
  ['backup', 'code'],
  ['recovery', 'code'],
  ['reset', 'code'],
  ['verification', 'code'],
];

/** Words after a secret noun that still name the secret itself (`passwordEncrypted`, `secretValue`, `tokenHash`). */
const secretForms = new Set([
  'value',
  'encrypted',
  'hash',
  'hashed',
  'digest',
  'fingerprint',
  'sealed',
  'ciphertext',
  'plain',
  'plaintext',
  'raw',
  'previous',
  'current',
]);

/** Whole names that hold a secret without naming one (a TOTP enrollment carries its secret in these). */
const secretNames = new Set(['otpauthuri', 'secretqrcode']);

/** A field name as lower-case words: `signingKeyAlgorithm`, `signing_key_algorithm`, `X-API-Key` all split. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singular = (word: string) =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/**
 * Answers by field name, kept: every audit entry asks about the same few names (a bulk import of 100,000 users asked
 * 1.5 million times, splitting each name into words each time). Bounded, as names also come from custom data: when
 * full it starts over.
 */
const secretFieldAnswers = new Map<string, boolean>();
const SECRET_FIELD_ANSWERS_MAX = 4096;

/** Whether a field of this name holds a secret (see the rule above). */
export function isSecretField(name: string): boolean {
  let answer = secretFieldAnswers.get(name);
  if (answer === undefined) {
    answer = judgeSecretField(name);
    if (secretFieldAnswers.size >= SECRET_FIELD_ANSWERS_MAX) secretFieldAnswers.clear();
    secretFieldAnswers.set(name, answer);
  }
  return answer;
}

function judgeSecretField(name: string): boolean {
  if (secretNames.has(name.toLowerCase())) return true;
  const all = words(name);
  while (all.length > 1 && secretForms.has(all.at(-1) ?? '')) all.pop();
  const parts = all.map(singular);
  return secretEndings.some(
    (ending) =>
      ending.length <= parts.length &&
      ending.every((word, index) => parts[parts.length - ending.length + index] === word),
  );
}

/** What the server writes in place of a secret's value. */
export const REDACTED_VALUE = '[redacted]';

/**
 * Values that stand in for a secret and are no secret themselves, so they may show: none, the server's words
 * ('set', 'changed', 'rotated'…) and the API's masks. Yes/no values are never secrets either (`hasPassword`).
 * {@link REDACTED_VALUE} is not one: a secret redacted on both sides still reads as "changed, value hidden".
 */
const redactionMarkers = new Set(['set', 'none', 'changed', 'previous', 'rotated', 'revealed', MASKED_SECRET]);

export function isRedactionMarker(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === 'boolean' ||
    (typeof value === 'string' && (redactionMarkers.has(value) || /^\*+$/.test(value)))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of a value with every secret replaced by `hidden`, at any depth and inside arrays. A change entry of a secret
 * field (`{field: 'clientSecret', before, after}`) hides its before and after as well.
 */
export function redactSecrets<T>(value: T, hidden: string = REDACTED_VALUE): T {
  return redact(value, hidden) as T;
}

function redact(value: unknown, hidden: string): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, hidden));
  if (!isRecord(value)) return value;
  const isSecretChange = typeof value.field === 'string' && isSecretField(value.field);
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => {
      const isSecret = isSecretField(name) || (isSecretChange && (name === 'before' || name === 'after'));
      return [name, isSecret && !isRedactionMarker(item) ? hidden : redact(item, hidden)];
    }),
  );
}
