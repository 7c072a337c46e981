import { ORGANIZATION_ROLES_SCOPE, ORGANIZATIONS_SCOPE } from '@gatehouse/schemas';
import type { UserManagerSettings } from 'oidc-client-ts';
import type { ConsoleConfig } from './console-config.ts';

/**
 * Spec §6: the profile, email, offline access (refresh tokens) and `all` on the APIs. The access
 * token of the sign-in is for the management API (OSS) or the cloud API (cloud); tokens for other
 * resources (the 'me' API) are obtained with the refresh token.
 */
const ossScope = 'openid profile email offline_access all';
/**
 * Cloud: also the organizations scopes, so the refresh token can be redeemed for each tenant's organization token
 * (its management API), and the cloud API's account scopes.
 */
const cloudScope = `${ossScope} ${ORGANIZATIONS_SCOPE} ${ORGANIZATION_ROLES_SCOPE} create:tenant manage:tenant:self`;

/**
 * The OIDC client's settings but its store (sessionStorage), where `stored-user.ts` reads the user (pinned by its
 * test). Kept apart from session.ts so the signed-out start (`sign-in-redirect.ts`) builds the same request without
 * the console or the OIDC client.
 */
export function oidcSettings(config: ConsoleConfig): UserManagerSettings {
  return {
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: `${window.location.origin}/console/callback`,
    post_logout_redirect_uri: `${window.location.origin}/console`,
    response_type: 'code',
    scope: config.edition === 'cloud' ? cloudScope : ossScope,
    prompt: 'login consent',
    // Resource indicators (RFC 8707): the grant covers both APIs; the code redeems for the management API.
    resource: [config.resource, config.meResource],
    extraTokenParams: { resource: config.resource },
    // Renewal goes through `accessTokenFor`, one refresh at a time: refresh tokens rotate, so two
    // concurrent refreshes would spend the same token and the second would fail.
    automaticSilentRenew: false,
  };
}
