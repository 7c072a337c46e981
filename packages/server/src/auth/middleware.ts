import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import type { SigningKeyStore } from './signing-keys.ts';
import { verifyManagementToken, verifyMeToken } from './tokens.ts';

function bearerToken(c: Context<AppEnv>): string {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '');
  if (!match?.[1]) throw new ApiError(401, 'auth.unauthorized', { reason: 'missing' });
  return match[1];
}

/** Requires a valid bearer token for the request's tenant holding every scope in `required`. */
export function requireManagementToken(keys: SigningKeyStore, required: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = await verifyManagementToken(keys, c.get('config').publicUrl, c.get('tenant').tenantId, bearerToken(c));
    if (!required.every((scope) => auth.scopes.has(scope))) throw new ApiError(403, 'auth.forbidden');
    c.set('auth', auth);
    await next();
  };
}

/** Requires a 'me' API token of a console user; the user is the token's subject. */
export function requireMeToken(keys: SigningKeyStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('auth', await verifyMeToken(keys, c.get('config').publicUrl, bearerToken(c)));
    await next();
  };
}
