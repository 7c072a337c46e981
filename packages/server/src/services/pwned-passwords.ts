import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { allowAllOutbound, outboundFetch } from './outbound.ts';

/** Whether a password is known from breaches; undefined when the service could not say (then it is allowed). */
export type PwnedCheck = (password: string) => Promise<boolean | undefined>;

/** The answer must come fast: a sign-up page waits for it. */
const TIMEOUT_MS = 3000;

/**
 * Spec §5: the pwned check sends only the first 5 hex characters of the password's SHA-1 to a range service
 * (k-anonymity) and looks for the other 35 in the suffixes it answers (`SUFFIX:COUNT` lines; padding entries have
 * count 0). The service is the operator's setting (PWNED_PASSWORDS_URL), never a tenant's, so it is not subject to
 * the private-address rule; it goes through the one outbound client for its timeouts and size cap. When it is off, unreachable or answers nonsense, the password is allowed and a warning logged:
 * an outage of a third party must not stop people from signing up.
 */
export function pwnedPasswordCheck(baseUrl: string | undefined, log: Pick<Logger, 'warn'>): PwnedCheck {
  const fetch = outboundFetch(allowAllOutbound);
  return async (password) => {
    if (!baseUrl) return undefined;
    const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const prefix = hash.slice(0, 5);
    const suffix = hash.slice(5);
    try {
      const response = await fetch(`${baseUrl}${prefix}`, {
        headers: { 'Add-Padding': 'true', Accept: 'text/plain' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = await response.text();
      for (const line of body.split('\n')) {
        const [candidate = '', count = '0'] = line.trim().split(':');
        if (candidate.toUpperCase() === suffix) return Number.parseInt(count, 10) > 0;
      }
      return false;
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'pwned-password check unavailable');
      return undefined;
    }
  };
}
