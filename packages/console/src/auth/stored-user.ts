import { z } from 'zod';
import type { ConsoleConfig } from './console-config.ts';

/**
 * The signed-in user as oidc-client-ts keeps it in sessionStorage (`WebStorageStateStore`'s `oidc.` prefix and
 * `UserManager`'s `user:{authority}:{client_id}` key, the JSON of `User.toStorageString`). Reading it here lets a page
 * whose tokens are fresh run without loading the OIDC client; `stored-user.test.ts` stores a user with the real
 * client and reads it back, so a change of that format fails a test instead of signing everyone out.
 */
const storedUserSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  id_token: z.string().optional(),
  scope: z.string().optional(),
  expires_at: z.number().optional(),
});
export type StoredUser = z.infer<typeof storedUserSchema>;

export const storedUserKey = (config: Pick<ConsoleConfig, 'issuer' | 'clientId'>) =>
  `oidc.user:${config.issuer}:${config.clientId}`;

/** The stored user, or null when nobody is signed in in this tab (or the entry is unreadable). */
export function readStoredUser(config: Pick<ConsoleConfig, 'issuer' | 'clientId'>): StoredUser | null {
  try {
    const parsed = storedUserSchema.safeParse(JSON.parse(sessionStorage.getItem(storedUserKey(config)) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // Storage disabled or not JSON: as signed out, which starts a sign-in.
  }
}

/** The per-API tokens `session.ts` caches beside the user. */
export const cachedTokenSchema = z.object({ token: z.string(), expiresAt: z.number(), scope: z.string().optional() });
export type CachedToken = z.infer<typeof cachedTokenSchema>;
