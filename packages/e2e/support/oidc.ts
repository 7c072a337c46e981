import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';

/**
 * Starts an authorization-code request with PKCE at the default tenant's issuer (`/oidc`) as the application
 * `clientId` would, and waits for the sign-in page. Answers the code verifier, for exchanging the code later.
 */
export async function startAuthorization(
  page: Page,
  request: { clientId: string; redirectUri: string; state: string; scope?: string; extra?: Record<string, string> },
): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: request.clientId,
    response_type: 'code',
    redirect_uri: request.redirectUri,
    scope: request.scope ?? 'openid',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: request.state,
    ...request.extra,
  });
  await page.goto(`/oidc/auth?${params}`);
  await page.waitForURL(/\/interaction\//);
  return verifier;
}
