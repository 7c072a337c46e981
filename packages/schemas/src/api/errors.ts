import { z } from 'zod';

/** Every error the API answers with has this body (ARCHITECTURE.md conventions). */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Error codes the server can answer with; each has a message in every language. */
export const errorCodes = [
  'guard.invalid_input',
  'guard.invalid_pagination',
  'request.invalid_json',
  'request.payload_too_large',
  'request.unsupported_media_type',
  'auth.unauthorized',
  'auth.forbidden',
  'entity.not_found',
  'entity.unique_violation',
  'entity.relation_foreign_key_not_found',
  'route.not_found',
  'route.method_not_allowed',
  'application.invalid_type',
  'application.role_exists',
  'application.secret_name_in_use',
  'application.saml.use_saml_app_api',
  'application.saml.entity_id_in_use',
  'application.saml.active_certificate',
  'resource.resource_identifier_in_use',
  'resource.reserved_indicator',
  'resource.read_only',
  'scope.name_exists',
  'role.scope_exists',
  'role.user_exists',
  'role.application_exists',
  'role.management_api_scope_for_user_role',
  'role.name_in_use',
  'role.invalid_type',
  'organization.user_exists',
  'organization.application_exists',
  'organization.require_membership',
  'organization.role_exists',
  'organization.jit_email_domain_exists',
  'organization.jit_role_exists',
  'organization_role.name_in_use',
  'organization_role.invalid_type',
  'organization_role.scope_exists',
  'organization_role.resource_scope_exists',
  'organization_scope.name_in_use',
  'organization_invitation.pending_exists',
  'organization_invitation.already_member',
  'organization_invitation.invalid_status',
  'organization_invitation.expired',
  'organization_invitation.email_mismatch',
  'user.username_already_in_use',
  'user.email_already_in_use',
  'user.phone_already_in_use',
  'session.invalid_credentials',
  'verification_record.invalid',
  'password.rejected',
  'user_assets.file_missing',
  'user_assets.file_too_large',
  'user_assets.unsupported_type',
  'oidc.key_required',
  'tenant.only_default_in_oss',
  'tenant.reserved',
  'tenant.last_admin',
  'subscription.quota_exceeded',
  'domain.domain_in_use',
  'domain.limit_reached',
  'request.general',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** One failing field of a `guard.invalid_input` answer. */
export const invalidFieldSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string(),
});
export type InvalidField = z.infer<typeof invalidFieldSchema>;
