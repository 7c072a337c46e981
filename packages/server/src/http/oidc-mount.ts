import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import type { Logger } from 'pino';
import type { TenantProviders } from '../auth/oidc/provider.ts';

/** `/oidc/...` is the default tenant's issuer, `/t/{tenantId}/oidc/...` every other tenant's. */
const ISSUER_PATH = /^(?:\/oidc|\/t\/([0-9a-z-]{1,21})\/oidc)(?=\/|\?|$)/;

const OIDC_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * Routes issuer paths to the tenant's oidc-provider (a Koa app) and everything else to Hono.
 * oidc-provider derives its mount path from `originalUrl` versus `url`, so the prefix is stripped.
 */
export function withOidcProviders(
  providers: TenantProviders,
  next: (req: IncomingMessage, res: ServerResponse) => void,
  log: Logger,
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const match = ISSUER_PATH.exec(url);
    if (!match) return next(req, res);
    const tenantId = match[1] ?? DEFAULT_TENANT_ID;
    for (const [name, value] of Object.entries(OIDC_HEADERS)) res.setHeader(name, value);
    providers
      .get(tenantId)
      .then((provider) => {
        if (!provider) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ code: 'entity.not_found', message: 'The requested resource was not found.' }));
          return;
        }
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
