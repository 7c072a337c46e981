import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createApp, type Services } from './app.ts';
import { TenantProviders } from './auth/oidc/provider.ts';
import { withOidcProviders } from './http/oidc-mount.ts';
import { internalSecretFor } from './services/application-secrets.ts';

/** One HTTP server: the tenants' OIDC issuers beside the Hono app (console, APIs). */
export function createHttpServer(services: Services): Server {
  const providers = new TenantProviders(services);
  const app = createApp({ ...services, providers });
  const internalSecret = (tenantId: string, clientId: string, secret: string) =>
    internalSecretFor(services.db, tenantId, clientId, secret);
  return createServer(withOidcProviders(providers, getRequestListener(app.fetch), services.log, internalSecret));
}
