import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { idSchema } from '../ids.ts';
import { issuerPath } from '../issuers.ts';
import { userSchema } from './user.ts';

/**
 * SCIM 2.0 provisioning connections (issue 45; docs/areas/scim.md). A connection belongs to one enterprise SSO
 * connector: the users a company's directory (Entra ID, Okta, …) provisions through it sign in through that connector.
 * The directory authenticates with a bearer token answered once (by the creation and by a rotation); the server keeps
 * only its SHA-256 hash.
 */

/** Every token value starts so, so a leaked one is recognisable (secret scanners, logs). */
export const SCIM_TOKEN_PREFIX = 'scim_';
/** Random characters after the prefix: 40 of [0-9a-z], about 206 bits. */
export const SCIM_TOKEN_RANDOM_LENGTH = 40;
/** The most resources one SCIM list answers: a larger `count` is cut to this (RFC 7644 §3.4.2.4 allows it). */
export const SCIM_MAX_PAGE_SIZE = 100;
/** How many of a connection's last SCIM requests are kept for the console. */
export const SCIM_REQUEST_LOG_SIZE = 200;
/** SCIM requests one connection may make per minute; more answer 429 with `Retry-After`. */
export const SCIM_REQUESTS_PER_MINUTE = 1200;

/**
 * Where a tenant's SCIM service lives below the public URL: beside its OIDC issuer (`issuerPath`), so `/scim/v2` for
 * the default tenant (OSS serves only it, like `/oidc` and `/api`) and `/t/{id}/scim/v2` for every other tenant.
 */
export function scimBasePath(tenantId: string): string {
  return `${issuerPath(tenantId).replace(/\/oidc$/, '')}/scim/v2`;
}

/** What SCIM DELETE of a user does: delete the account, or suspend it (reversible; the default). */
export const scimDeprovisionModes = ['delete', 'suspend'] as const;
export type ScimDeprovisionMode = (typeof scimDeprovisionModes)[number];

/**
 * What a SCIM group maps to. `organization`: the members of the connection's groups are members of that organization,
 * and a group whose displayName is the name of an organization role grants that role there. `roles`: a group whose
 * displayName is the name of a tenant user role grants that role to its members.
 */
export const scimGroupMappingSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('organization'), organizationId: z.string().min(1).max(32) }),
  z.strictObject({ kind: z.literal('roles') }),
]);
export type ScimGroupMapping = z.infer<typeof scimGroupMappingSchema>;

const connectionNameSchema = z.string().trim().min(1).max(128);

export const scimConnectionSchema = z.object({
  tenantId: z.string(),
  id: z.string(),
  name: z.string(),
  ssoConnectorId: z.string(),
  groupMapping: scimGroupMappingSchema,
  deprovision: z.enum(scimDeprovisionModes),
  /** The SCIM base URL the directory is given (`…/scim/v2`). */
  baseUrl: z.string(),
  /** Whether a token is in force (false once revoked, until a new one is made). */
  hasToken: z.boolean(),
  /** Epoch milliseconds of the token in force, or null. */
  tokenCreatedAt: z.number().int().nullable(),
  /** Epoch milliseconds of the last SCIM request the connection made, or null. */
  lastRequestAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ScimConnection = z.infer<typeof scimConnectionSchema>;

/** The creation's and a rotation's answer: the connection with its token, shown this once. */
export const scimConnectionWithTokenSchema = scimConnectionSchema.extend({ token: z.string() });
export type ScimConnectionWithToken = z.infer<typeof scimConnectionWithTokenSchema>;

/** `POST /scim-connections`. */
export const scimConnectionCreateSchema = z.strictObject({
  name: connectionNameSchema,
  ssoConnectorId: idSchema,
  /** `{ kind: 'roles' }` when absent. */
  groupMapping: scimGroupMappingSchema.optional(),
  /** `suspend` when absent. */
  deprovision: z.enum(scimDeprovisionModes).optional(),
});
export type ScimConnectionCreate = z.infer<typeof scimConnectionCreateSchema>;

/** `PATCH /scim-connections/{id}`: the given fields replace the stored ones (the SSO connector stays). */
export const scimConnectionPatchSchema = z
  .strictObject({
    name: connectionNameSchema,
    groupMapping: scimGroupMappingSchema,
    deprovision: z.enum(scimDeprovisionModes),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change.' });
export type ScimConnectionPatch = z.infer<typeof scimConnectionPatchSchema>;

/** `GET /scim-connections`: optionally paginated, optionally one SSO connector's. */
export const scimConnectionListQuerySchema = paginationQuerySchema.extend({
  ssoConnectorId: z.string().min(1).max(256).optional().meta({ description: "Only this SSO connector's connection." }),
});
export type ScimConnectionListQuery = z.infer<typeof scimConnectionListQuerySchema>;

/** One SCIM request a connection made (`GET /scim-connections/{id}/requests`, newest first). */
export const scimRequestSchema = z.object({
  id: z.string(),
  method: z.string(),
  /** Below the SCIM base URL, with the query (`/Users?filter=…`), cut to 512 characters. */
  path: z.string(),
  status: z.number().int(),
  /** The SCIM error type of a refusal (`uniqueness`, `invalidFilter`…), or null. */
  scimType: z.string().nullable(),
  createdAt: z.number().int(),
});
export type ScimRequest = z.infer<typeof scimRequestSchema>;

/** A user a connection provisioned (`GET /scim-connections/{id}/users`). */
export const scimProvisionedUserSchema = z.object({
  userName: z.string(),
  externalId: z.string().nullable(),
  /** When the directory created (or adopted) the account. */
  createdAt: z.number().int(),
  /** When the directory last changed it. */
  updatedAt: z.number().int(),
  user: userSchema,
});
export type ScimProvisionedUser = z.infer<typeof scimProvisionedUserSchema>;

/** A group a connection provisioned (`GET /scim-connections/{id}/groups`). */
export const scimGroupSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  externalId: z.string().nullable(),
  memberCount: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ScimGroup = z.infer<typeof scimGroupSchema>;

/** `GET /users/{userId}/scim`: which connection provisioned the user, if any. */
export const userScimProvisioningSchema = z.object({
  provisioning: z
    .object({
      connectionId: z.string(),
      connectionName: z.string(),
      ssoConnectorId: z.string(),
      userName: z.string(),
      externalId: z.string().nullable(),
      createdAt: z.number().int(),
      updatedAt: z.number().int(),
    })
    .nullable(),
});
export type UserScimProvisioning = z.infer<typeof userScimProvisioningSchema>;

/** `search` over a connection's users (username in the directory, email, name) or groups (display name). */
export const scimConnectionMembersQuerySchema = paginationQuerySchema.extend({
  search: z.string().min(1).max(256).optional(),
});
export type ScimConnectionMembersQuery = z.infer<typeof scimConnectionMembersQuerySchema>;
