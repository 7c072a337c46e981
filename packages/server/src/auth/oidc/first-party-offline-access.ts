import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import { applications } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';

/**
 * OIDC Core 11 lets a provider drop `offline_access` unless the request also says `prompt=consent`, and
 * oidc-provider does, so a first-party application asking for a refresh token got none. Consent is never asked of a
 * first-party application's users (the interaction grants it at once), so for those the authorization request gets
 * `consent` added to its prompt: the refresh token is issued, and the user sees nothing more. Third-party
 * applications keep the rule (their users are asked).
 */
export function offlineAccessForFirstParty(provider: Provider, tenant: TenantDb): void {
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth') {
      const { scope, prompt, client_id: clientId } = ctx.query;
      const prompts = typeof prompt === 'string' ? prompt.split(' ').filter(Boolean) : [];
      if (
        typeof scope === 'string' &&
        scope.split(' ').includes('offline_access') &&
        !prompts.includes('consent') &&
        !prompts.includes('none') &&
        typeof clientId === 'string' &&
        clientId.length <= 64
      ) {
        const app = await tenant.findOne(applications, eq(applications.id, clientId));
        if (app && !app.isThirdParty) {
          // The issuer's mount path is what `originalUrl` has before `url` (http/oidc-mount.ts): keep the two in step.
          const req = ctx.req as typeof ctx.req & { originalUrl?: string };
          const mount = req.originalUrl?.endsWith(ctx.url) ? req.originalUrl.slice(0, -ctx.url.length) : '';
          ctx.query = { ...ctx.query, prompt: [...prompts, 'consent'].join(' ') };
          if (req.originalUrl !== undefined) req.originalUrl = `${mount}${ctx.url}`;
        }
      }
    }
    await next();
  });
}
