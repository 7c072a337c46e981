import type { Application, ApplicationType, CustomClientMetadata, OidcClientMetadata } from '@gatehouse/schemas';
import type { ApplicationRow } from './role-assignments.ts';

/** The API shape of an application row. */
export function toApplication(row: ApplicationRow): Application {
  const oidc = row.oidcClientMetadata as Partial<OidcClientMetadata>;
  return {
    tenantId: row.tenantId,
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type as ApplicationType,
    oidcClientMetadata: {
      ...oidc,
      redirectUris: oidc.redirectUris ?? [],
      postLogoutRedirectUris: oidc.postLogoutRedirectUris ?? [],
    },
    customClientMetadata: row.customClientMetadata as CustomClientMetadata,
    customData: row.customData,
    isThirdParty: row.isThirdParty,
    createdAt: row.createdAt.getTime(),
  };
}
