import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@gatehouse/schemas';
import { getRequestListener } from '@hono/node-server';
import { createApp, type Services } from './app.ts';
import { TenantProviders } from './auth/oidc/provider.ts';
import { admitInOrder } from './http/admission.ts';
import { withOidcProviders } from './http/oidc-mount.ts';
import { errorMessage } from './i18n/messages.ts';
import { internalSecretFor } from './services/application-secrets.ts';

/** One HTTP server: the tenants' OIDC issuers beside the Hono app (console, APIs). */
export function createHttpServer(services: Services): Server {
  const { tenants } = services;
  const providers = new TenantProviders(services);
  const app = createApp({ ...services, providers });
  const internalSecret = (tenantId: string, clientId: string, secret: string) =>
    internalSecretFor(tenants.of(tenantId), clientId, secret, providers.clients);
  const listener = withOidcProviders(providers, getRequestListener(app.fetch), services.log, internalSecret);
  const server = createServer(services.admissionLimit ? admitInOrder(listener, services.admissionLimit) : listener);
  server.on('clientError', answerUnreadableRequest);
  return server;
}

/**
 * Node refuses a request it cannot parse (headers or URL over `maxHeaderSize`, a broken request line) before any
 * handler runs, and by default answers with an empty body. Answer with the API's `{code, message}` instead; the
 * headers were not read, so the language is English.
 */
export function answerUnreadableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code]: [number, string, ErrorCode] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request.header_too_large']
      : [400, 'Bad Request', 'request.malformed'];
  const body = JSON.stringify({ code, message: errorMessage(code, 'en') });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
