import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { applications } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';

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
