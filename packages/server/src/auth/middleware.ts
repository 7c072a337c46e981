import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import type { SigningKeyStore } from './signing-keys.ts';
import { verifyManagementToken } from './tokens.ts';

/** Requires a valid bearer token for the request's tenant holding every scope in `required`. */
export function requireManagementToken(keys: SigningKeyStore, required: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new ApiError(401, 'auth.unauthorized', { reason: 'missing' });
    const auth = await verifyManagementToken(keys, c.get('config').publicUrl, c.get('tenant').tenantId, match[1]);
    if (!required.every((scope) => auth.scopes.has(scope))) throw new ApiError(403, 'auth.forbidden');
    c.set('auth', auth);
    await next();
  };
}
