import {
  type Application,
  type ApplicationCreate,
  type ApplicationType,
  applicationCustomDataInputSchema,
  applicationPatchSchema,
  type CustomClientMetadata,
  DomainError,
  type EntitySearchField,
  generateId,
  notFound,
  type OidcClientMetadata,
  type SearchSyntaxQuery,
} from '@gatehouse/schemas';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { applications, applicationsRoles, organizationApplications } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { removeApplicationSignInExperience } from './application-sign-in-experience.ts';
import { generateClientSecret } from './client-secret.ts';
import { fieldSearchCondition } from './field-search.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { applicationQuotaKey, assertQuota, type QuotaDeps } from './quota.ts';
import { notInRelation } from './relations.ts';
import { type ApplicationRow, findApplication } from './role-assignments.ts';
import { parseInput, performWrite, type WriteContext } from './write-path.ts';

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
    protectedAppMetadata: null,
    createdAt: row.createdAt.getTime(),
  };
}

export type ApplicationFilter = SearchSyntaxQuery<EntitySearchField> & {
  /** Only these types. */
  types?: ApplicationType | ApplicationType[] | undefined;
  isThirdParty?: 'true' | 'false' | undefined;
  /** Leave out applications holding this role. */
  excludeRoleId?: string | undefined;
  /** Leave out applications of this organization (to pick ones to add). */
  excludeOrganizationId?: string | undefined;
};

/** The condition and order of GET /applications, newest first. */
export function applicationListQuery(tenant: TenantDb, filter: ApplicationFilter): ListQuery {
  const conditions: SQL[] = [];
  const types = filter.types === undefined ? [] : [filter.types].flat();
  if (types.length) conditions.push(inArray(applications.type, types));
  if (filter.isThirdParty) conditions.push(eq(applications.isThirdParty, filter.isThirdParty === 'true'));
  if (filter.excludeRoleId) {
    conditions.push(
      notInRelation(
        tenant,
        applications.id,
        applicationsRoles,
        applicationsRoles.applicationId,
        eq(applicationsRoles.roleId, filter.excludeRoleId),
      ),
    );
  }
  if (filter.excludeOrganizationId) {
    conditions.push(
      notInRelation(
        tenant,
        applications.id,
        organizationApplications,
        organizationApplications.applicationId,
        eq(organizationApplications.organizationId, filter.excludeOrganizationId),
      ),
    );
  }
  // The reference's search syntax over id, name and description (`search`, `search.<field>`, `mode`, `joint`, …).
  const search = fieldSearchCondition(filter, {
    id: applications.id,
    name: applications.name,
    description: applications.description,
  });
  if (search) conditions.push(search);
  return {
    where: conditions.length ? and(...conditions) : undefined,
    orderBy: [desc(applications.createdAt), desc(applications.id)],
  };
}

/** GET /applications: the applications a filter selects, newest first. */
export function applicationList(tenant: TenantDb, filter: ApplicationFilter) {
  return tableList(tenant, applications, applicationListQuery(tenant, filter));
}

export async function getApplication(tenant: TenantDb, id: string): Promise<Application> {
  return toApplication(await findApplication(tenant, id));
}

/**
 * SAML applications are created, changed and deleted through `/saml-applications` only: `POST`, `PATCH` and `DELETE`
 * `/applications[/{id}]` answer 400 `application.saml.use_saml_app_api` for them, as the reference does.
 */
const useSamlApi = () => new DomainError('invalid', 'application.saml.use_saml_app_api');

/** A new OIDC application (SAML ones have their own API), within the plan's quota. */
export function createApplication(ctx: WriteContext, deps: QuotaDeps, input: ApplicationCreate): Promise<Application> {
  return performWrite(ctx, 'Admin.Application.Created', async (tx) => {
    if (input.type === 'SAML') throw useSamlApi();
    await assertQuota(tx, applicationQuotaKey(input.type, input.isThirdParty ?? false), deps);
    const created = toApplication(
      await tx.insert(applications, {
        id: generateId(),
        name: input.name,
        type: input.type,
        description: input.description ?? null,
        // The provider's own client secret; callers use named secrets (POST /applications/{id}/secrets).
        secret: generateClientSecret(),
        oidcClientMetadata: input.oidcClientMetadata ?? {},
        customClientMetadata: input.customClientMetadata ?? {},
        customData: input.customData ?? {},
        isThirdParty: input.isThirdParty ?? false,
      }),
    );
    return { result: created, entity: { type: 'Application', id: created.id }, before: null, after: created };
  });
}

/**
 * A patch of an application; `oidcClientMetadata` and `customClientMetadata` are merged key by key. The body is
 * validated here against the rules of the application's type (its redirect-URI rule), which the route's
 * contract cannot know: the type never changes, so it is read before the write.
 */
export async function updateApplication(ctx: WriteContext, id: string, body: unknown): Promise<Application> {
  const { type } = await findApplication(ctx.tenant, id);
  if (type === 'SAML') throw useSamlApi();
  return performWrite(
    ctx,
    { key: 'Admin.Application.Updated', schema: applicationPatchSchema(type as ApplicationType), input: body },
    async (tx, input) => {
      const existing = await findApplication(tx, id);
      const { oidcClientMetadata, customClientMetadata, ...fields } = input;
      const [row] = await tx.update(applications, eq(applications.id, id), {
        ...fields,
        ...(oidcClientMetadata && {
          oidcClientMetadata: { ...existing.oidcClientMetadata, ...oidcClientMetadata },
        }),
        ...(customClientMetadata && {
          customClientMetadata: { ...existing.customClientMetadata, ...customClientMetadata },
        }),
      });
      if (!row) throw notFound();
      const before = toApplication(existing);
      const after = toApplication(row);
      return { result: after, entity: { type: 'Application', id }, before, after };
    },
  );
}

export function deleteApplication(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Application.Deleted', async (tx) => {
    if ((await findApplication(tx, id)).type === 'SAML') throw useSamlApi();
    const [row] = await tx.delete(applications, eq(applications.id, id));
    if (!row) throw notFound();
    await removeApplicationSignInExperience(tx, id);
    return { result: undefined, entity: { type: 'Application', id }, before: toApplication(row), after: null };
  });
}

/**
 * PATCH /applications/{id}/custom-data: the given keys replace the stored ones and the others stay (a shallow merge,
 * as the reference's JSON merge); the merged object keeps the 64 KiB cap. Answers the whole custom data.
 */
export function mergeApplicationCustomData(
  ctx: WriteContext,
  id: string,
  patch: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return performWrite(ctx, 'Admin.Application.Updated', async (tx) => {
    const existing = await findApplication(tx, id);
    const customData = parseInput(applicationCustomDataInputSchema, { ...existing.customData, ...patch });
    const [row] = await tx.update(applications, eq(applications.id, id), { customData });
    if (!row) throw notFound();
    return {
      result: row.customData,
      entity: { type: 'Application', id },
      before: { customData: existing.customData },
      after: { customData: row.customData },
    };
  });
}
