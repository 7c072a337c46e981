import type { ErrorCode, InvalidField } from '@gatehouse/schemas';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/** An error the API answers with `{code, message, data?}`; the message is localised when sent. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly data: unknown;

  constructor(status: ContentfulStatusCode, code: ErrorCode, data?: unknown) {
    super(code);
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

/**
 * The three 404s of a missing row, by how the reference misses it (its `buildFindEntityByIdWithPool` and
 * `koa-slonik-error-handler`); each route family answers the one its reference route does (docs/conventions.md):
 * - {@link notFound}: a find by id through the generic finder (roles, applications, resources, organizations' GET…);
 * - {@link rowNotFound}: a hand-written one-row query (`pool.one`: users, whose finder is one) or a delete that removed
 *   nothing (`DeletionError`: `DELETE /organizations/{id}`, a relation's link, a secret or token by name);
 * - {@link nothingUpdated}: an update that matched no row (`UpdateError`: `PATCH /organizations/{id}`, a secret's or
 *   token's new name, a scope's PATCH).
 */
export const notFound = () => new ApiError(404, 'entity.not_exists_with_id');
export const rowNotFound = () => new ApiError(404, 'entity.not_found');
export const nothingUpdated = () => new ApiError(404, 'entity.not_exists');
/** One of the 404s above, for finders shared by reads and writes that answer differently. */
export type Miss = () => ApiError;

export function invalidFields(error: ZodError): InvalidField[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}

/** Unique constraints we name on purpose, mapped to the domain's error code (422, as the reference API). */
const uniqueViolationCodes: Record<string, ErrorCode> = {
  roles_name_unique: 'role.name_in_use',
  domains_domain_unique: 'domain.domain_in_use',
  resources_indicator_unique: 'resource.resource_identifier_in_use',
  scopes_name_unique: 'scope.name_exists',
  application_secrets_name_unique: 'application.secret_name_in_use',
  saml_application_configs_entity_id_unique: 'application.saml.entity_id_in_use',
  users_username_unique: 'user.username_already_in_use',
  users_primary_email_unique: 'user.email_already_in_use',
  users_primary_phone_unique: 'user.phone_already_in_use',
  personal_access_tokens_name_unique: 'user.personal_access_token_name_exists',
  organization_roles_name_unique: 'organization_role.name_in_use',
  organization_scopes_name_unique: 'organization_scope.name_in_use',
  organization_invitations_pending_unique: 'organization_invitation.pending_exists',
  sso_connectors_connector_name_unique: 'single_sign_on.duplicate_connector_name',
};

type PgError = { code?: string; constraint?: string };

function findPgError(error: unknown): PgError | undefined {
  // drizzle wraps driver errors; the PostgreSQL error (pg or PGlite) is somewhere down the cause chain.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgError & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}

/** Turns constraint violations into API errors; anything else is returned unchanged. */
export function fromDatabaseError(error: unknown): unknown {
  const pgError = findPgError(error);
  if (!pgError) return error;
  if (pgError.code === '23505') {
    const code = (pgError.constraint && uniqueViolationCodes[pgError.constraint]) || 'entity.unique_violation';
    return new ApiError(422, code);
  }
  if (pgError.code === '23503') return new ApiError(404, 'entity.relation_foreign_key_not_found');
  return error;
}
