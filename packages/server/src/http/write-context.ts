import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { WriteContext } from '../services/write-path.ts';
import type { AppEnv } from './context.ts';

/** The write context of an authenticated management request. */
export function writeContext(c: Context<AppEnv>): WriteContext {
  let ip: string | undefined;
  try {
    ip = getConnInfo(c).remote.address;
  } catch {
    // In-process requests (tests) have no socket.
    ip = undefined;
  }
  return {
    tenant: c.get('tenant'),
    actor: c.get('auth').actor,
    requestId: c.get('requestId'),
    ip,
    userAgent: c.req.header('User-Agent'),
  };
}
