import { type InvalidField, MASKED_SECRET, type SecretBinding } from '@gatehouse/schemas';

/**
 * A masked secret is bound to where it is sent (issue 39, item 3). The console never sees a stored secret: a form
 * sends it back as {@link MASKED_SECRET}, meaning "keep what is stored". That must not also mean "send it to the new
 * host": whoever may edit a connector but never saw its password could point the host at a server of theirs, keep
 * the mask, and receive the password with the next test send. So when a request keeps a secret by its mask and
 * changes a destination field (a host, a port, an endpoint, an issuer), each kept secret must be entered again.
 */
export type { SecretBinding };

/** The field's issue code in `data`: the console words its own message for it. */
export const SECRET_REQUIRED_ISSUE = 'secret_required';

const comparable = (value: unknown) => (value === undefined || value === null || value === '' ? undefined : value);

/**
 * The fields to refuse (empty: none): the secrets `sentBack` keeps by their mask when `next` sends to another
 * destination than `stored`. `path` turns a config key into the field's API path.
 */
export function secretsSentElsewhere(
  binding: SecretBinding,
  stored: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
  sentBack: Readonly<Record<string, unknown>>,
  path: (key: string) => string = (key) => key,
): InvalidField[] {
  const kept = Object.keys(sentBack).filter((key) => binding.secrets.includes(key) && sentBack[key] === MASKED_SECRET);
  if (kept.length === 0) return [];
  const moved = binding.destinations.filter((key) => comparable(next[key]) !== comparable(stored[key]));
  if (moved.length === 0) return [];
  return kept.map((key) => ({
    path: path(key),
    code: SECRET_REQUIRED_ISSUE,
    message: `Enter this secret again: ${moved.join(', ')} changed, and a stored secret is never sent to a new destination.`,
  }));
}
