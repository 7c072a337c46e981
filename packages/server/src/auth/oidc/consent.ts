import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Interaction, KoaContextWithOIDC } from 'oidc-provider';
import { applications } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { latestUserGrantId } from '../../services/user-grants.ts';

/** The application asking for consent: its name and whether it is a third party (whose users are asked). */
export async function consentingApplication(tenant: TenantDb, clientId: string) {
  const app = await tenant.findOne(applications, eq(applications.id, clientId));
  return app && { name: app.name, isThirdParty: app.isThirdParty };
}

/** Grants what the consent prompt is missing (a first-party application, or a third party the user allowed). */
export async function grantConsent(provider: Provider, details: Interaction): Promise<string> {
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}

/**
 * oidc-provider's `loadExistingGrant`: the grant of this sign-in session, else the one this user last gave this
 * application (any browser, any earlier session). Without the second, a third-party application's users were asked
 * again at every sign-in from a fresh browser, and each Allow stored one more grant (issue 37 item 5). A grant an admin
 * revoked is gone from both.
 */
export async function loadExistingGrant(tenant: TenantDb, ctx: KoaContextWithOIDC) {
  const { provider, client, session, result } = ctx.oidc;
  if (!client) return undefined;
  const sessionGrantId =
    (result?.consent as { grantId?: string } | undefined)?.grantId ?? session?.grantIdFor(client.clientId);
  const sessionGrant = sessionGrantId ? await provider.Grant.find(sessionGrantId) : undefined;
  if (sessionGrant) return sessionGrant;
  const accountId = session?.accountId;
  const storedId = accountId ? await latestUserGrantId(tenant, accountId, client.clientId) : undefined;
  return storedId ? provider.Grant.find(storedId) : undefined;
}
