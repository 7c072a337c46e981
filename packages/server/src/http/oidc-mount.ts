import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import type { Logger } from 'pino';
import type { TenantProviders } from '../auth/oidc/provider.ts';
import { LOGOUT_SCRIPT_CSP_SOURCE } from '../auth/sign-in-page.ts';
import { translateBasicClientSecret } from '../services/application-secrets.ts';
import { urlInputProblem } from './input-guard.ts';

/** `/oidc/...` is the default tenant's issuer, `/t/{tenantId}/oidc/...` every other tenant's. */
const ISSUER_PATH = /^(?:\/oidc|\/t\/([0-9a-z-]{1,21})\/oidc)(?=\/|\?|$)/;

const OIDC_HEADERS: Record<string, string> = {
  // Only the sign-out page's one script (by hash) and the sign-in stylesheet may load.
  'Content-Security-Policy': `default-src 'none'; script-src ${LOGOUT_SCRIPT_CSP_SOURCE}; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  // The same as the Hono side sends (browsers ignore it over plain http, so it is safe before TLS is set up).
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

/**
 * Routes issuer paths to the tenant's oidc-provider (a Koa app) and everything else to Hono.
 * oidc-provider derives its mount path from `originalUrl` versus `url`, so the prefix is stripped.
 */
export function withOidcProviders(
  providers: TenantProviders,
  next: (req: IncomingMessage, res: ServerResponse) => void,
  log: Logger,
  /** Maps a client's named secret to the internal one the provider compares (see application-secrets.ts). */
  internalSecret?: (tenantId: string, clientId: string, secret: string) => Promise<string | undefined>,
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const match = ISSUER_PATH.exec(url);
    if (!match) return next(req, res);
    const tenantId = match[1] ?? DEFAULT_TENANT_ID;
    for (const [name, value] of Object.entries(OIDC_HEADERS)) res.setHeader(name, value);
    // A NUL character or a broken escape in the URL: the OAuth error for a malformed request (RFC 6749 4.1.2.1), before
    // the provider looks anything up with it. Form bodies meet the same rule in the adapters (auth/oidc/adapter.ts).
    if (urlInputProblem(`http://host${url}`)) {
      res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ error: 'invalid_request', error_description: 'The request could not be read.' }));
      return;
    }
    Promise.all([
      providers.get(tenantId),
      internalSecret &&
        translateBasicClientSecret(req.headers.authorization, (clientId, secret) =>
          internalSecret(tenantId, clientId, secret),
        ),
    ])
      .then(([provider, authorization]) => {
        if (!provider) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(
            JSON.stringify({ code: 'entity.not_exists_with_id', message: 'The requested resource was not found.' }),
          );
          return;
        }
        if (authorization) req.headers.authorization = authorization;
        (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
        req.url = url.slice(match[0].length) || '/';
        provider.callback()(req, res);
      })
      .catch((error: unknown) => {
        log.error({ err: error, tenantId }, 'OIDC provider failed');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: 'request.general', message: 'Internal server error.' }));
      });
  };
}
