import type Provider from 'oidc-provider';
import type { Database } from '../../db/database.ts';
import { FailureThrottle, type ThrottleKey } from '../../services/failure-throttle.ts';

/** The endpoints where a client authenticates with its secret (oidc-provider's paths, under the issuer). */
const CLIENT_AUTH_PATH = /^\/token(?:\/introspection|\/revocation)?$/;

/**
 * Failed client authentications allowed per window before further attempts are refused with 429 (issue 39, item 4):
 * per address and client, so one address cannot guess a client's secret; per address over all clients, so one
 * address cannot guess many. There is no limit per client across addresses: it let three addresses lock a client
 * out for everyone (20 wrong secrets each, then the right secret from a fourth address got 429), and it protected
 * nothing: a client secret is 32 random bytes (services/client-secret.ts), which no number of addresses guesses.
 * The right secret from an address that has not been guessing is always compared, and accepted.
 */
export const CLIENT_AUTH_LIMITS = { perAddressAndClient: 20, perAddress: 60, windowMs: 60_000 } as const;

type Limits = { perAddressAndClient: number; perAddress: number; windowMs: number };

/** The failure counters of client authentication, in the database: shared by every process and tenant provider. */
export class ClientAuthThrottle {
  readonly #throttle: FailureThrottle;
  readonly #limits: Limits;

  constructor(db: Database, limits: Limits = CLIENT_AUTH_LIMITS, now = Date.now) {
    this.#throttle = new FailureThrottle(db, limits.windowMs, now);
    this.#limits = limits;
  }

  /** Seconds until the address may try again (for this client), or 0 when it is under its limits. */
  retryAfter(ip: string, client: string | undefined): Promise<number> {
    return this.#throttle.retryAfter(this.#keys(ip, client));
  }

  fail(ip: string, client: string | undefined): Promise<void> {
    return this.#throttle.fail(this.#keys(ip, client));
  }

  #keys(ip: string, client: string | undefined): ThrottleKey[] {
    const keys: ThrottleKey[] = [[`client-auth ip ${ip}`, this.#limits.perAddress]];
    if (client) keys.push([`client-auth ip ${ip} client ${client}`, this.#limits.perAddressAndClient]);
    return keys;
  }
}

/** The client id of an HTTP Basic `Authorization` header (RFC 6749 §2.3.1), without checking the secret. */
function basicClientId(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Counts failed client authentications at the token, introspection and revocation endpoints of one tenant's
 * issuer, and refuses further attempts from that address (for that client, or for any past the address's own
 * limit) with 429 and `Retry-After` until the window ends. A refused attempt never reaches the secret comparison.
 */
export function throttleClientAuthentication(provider: Provider, tenantId: string, throttle: ClientAuthThrottle) {
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || !CLIENT_AUTH_PATH.test(ctx.path)) return next();
    const headerClient = basicClientId(ctx.get('authorization'));
    const clientKey = (id: string | undefined) => (id ? `${tenantId} ${id}` : undefined);
    const wait = await throttle.retryAfter(ctx.ip, clientKey(headerClient));
    if (wait > 0) {
      ctx.status = 429;
      ctx.set('Retry-After', String(wait));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: `too many failed client authentications; retry in ${wait} s`,
      };
      return;
    }
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.status === 401 && body?.error === 'invalid_client') {
      const bodyClient = (ctx.oidc?.params as { client_id?: unknown } | undefined)?.client_id;
      await throttle.fail(ctx.ip, clientKey(headerClient ?? (typeof bodyClient === 'string' ? bodyClient : undefined)));
    }
  });
}
