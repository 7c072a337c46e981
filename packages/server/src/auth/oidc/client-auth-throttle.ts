import type Provider from 'oidc-provider';
import type { Database } from '../../db/database.ts';
import { FailureThrottle, type ThrottleKey } from '../../services/failure-throttle.ts';

/** The endpoints where a client authenticates with its secret (oidc-provider's paths, under the issuer). */
const CLIENT_AUTH_PATH = /^\/token(?:\/introspection|\/revocation)?$/;

/**
 * Failed client authentications allowed per window before further attempts are refused with 429. Per IP, so one
 * address cannot brute-force secrets; per client, looser, so guesses spread over many addresses still slow down
 * while one noisy address cannot lock a client out for everyone.
 */
export const CLIENT_AUTH_LIMITS = { perIp: 20, perClient: 60, windowMs: 60_000 } as const;

/** The failure counters of client authentication, in the database: shared by every process and tenant provider. */
export class ClientAuthThrottle {
  readonly #throttle: FailureThrottle;
  readonly #limits: { perIp: number; perClient: number };

  constructor(
    db: Database,
    limits: { perIp: number; perClient: number; windowMs: number } = CLIENT_AUTH_LIMITS,
    now = Date.now,
  ) {
    this.#throttle = new FailureThrottle(db, limits.windowMs, now);
    this.#limits = limits;
  }

  /** Seconds until the address and the client may try again, or 0 when neither is over its limit. */
  retryAfter(ip: string, client: string | undefined): Promise<number> {
    return this.#throttle.retryAfter(this.#keys(ip, client));
  }

  fail(ip: string, client: string | undefined): Promise<void> {
    return this.#throttle.fail(this.#keys(ip, client));
  }

  #keys(ip: string, client: string | undefined): ThrottleKey[] {
    const keys: ThrottleKey[] = [[`client-auth ip ${ip}`, this.#limits.perIp]];
    if (client) keys.push([`client-auth client ${client}`, this.#limits.perClient]);
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
 * issuer, and refuses further attempts from that IP (or for that client) with 429 and `Retry-After` until the
 * window ends. A refused attempt never reaches the secret comparison.
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
