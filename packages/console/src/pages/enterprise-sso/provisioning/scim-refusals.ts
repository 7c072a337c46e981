import type { UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../api/client.ts';
import { FormValidationError } from '../../../components/submit/form-validation-error.ts';
import {
  applyServerErrors,
  type ServerErrorMapping,
  serverErrorIds,
} from '../../../components/submit/server-errors.ts';
import { type ProvisioningForm, provisioningFieldOf } from '../scim-form.ts';

const missingRelation = 'entity.relation_foreign_key_not_found';

/**
 * The server's refusal of a setup or a save, on the provisioning form's fields: an organization deleted meanwhile (404
 * `entity.relation_foreign_key_not_found` naming it) under the organization, `guard.invalid_input` paths on theirs.
 * True when placed; a refusal the mutation silenced that names no field of the form (the SSO connector itself gone)
 * is thrown as a FormValidationError, for its toast; false for anything else, which the caller rethrows.
 */
export function placeScimRefusal(
  form: { setError: UseFormSetError<ProvisioningForm> },
  error: unknown,
  values: ProvisioningForm,
): boolean {
  const isOrganizationGone =
    values.mapping === 'organization' && serverErrorIds(error, missingRelation)?.includes(values.organizationId);
  const mapping: ServerErrorMapping<ProvisioningForm> = {
    codes: isOrganizationGone ? { [missingRelation]: 'organizationId' } : {},
    paths: provisioningFieldOf,
  };
  if (applyServerErrors(form, error, mapping)) return true;
  if (error instanceof ApiError && error.code === missingRelation) throw new FormValidationError(error.message);
  return false;
}
