import { DomainError, type ErrorCode } from '@gatehouse/schemas';

/**
 * Unique constraints we name on purpose, mapped to the domain's error code (422, as the reference API). Others answer
 * the reference's generic `entity.unique_integrity_violation`, which is also what the reference answers for an
 * organization role's or scope's name in use (`organization_roles_name_unique`, `organization_scopes_name_unique`).
 */
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
  organization_invitations_pending_unique: 'organization_invitation.pending_exists',
  sso_connectors_connector_name_unique: 'single_sign_on.duplicate_connector_name',
  scim_connections_sso_connector_unique: 'scim_connection.sso_connector_in_use',
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

/** Turns constraint violations into domain errors (a unique value in use, a missing referenced row); anything else is returned unchanged. */
export function fromDatabaseError(error: unknown): unknown {
  const pgError = findPgError(error);
  if (!pgError) return error;
  if (pgError.code === '23505') {
    const code =
      (pgError.constraint && uniqueViolationCodes[pgError.constraint]) || 'entity.unique_integrity_violation';
    return new DomainError('conflict', code);
  }
  if (pgError.code === '23503') return new DomainError('not_found', 'entity.relation_foreign_key_not_found');
  return error;
}
