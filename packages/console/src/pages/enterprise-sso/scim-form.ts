import {
  type ScimConnection,
  type ScimConnectionCreate,
  type ScimConnectionPatch,
  type ScimDeprovisionMode,
  type ScimGroupMapping,
  scimConnectionCreateSchema,
  scimDeprovisionModes,
  scimGroupMappingSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { requiredBy } from './sso-form.ts';

/**
 * The form of a connector's SCIM provisioning (issue 45), for its setup dialog and its settings: the connection's
 * name, what the directory's groups grant and what a SCIM DELETE of a user does. The rules are the shared schemas'
 * (`entities/scim-connection.ts`): the group mapping the form describes is checked by `scimGroupMappingSchema` itself,
 * and its refusal (an organization mapping without an organization) is worded by `ssoWording`.
 */

export const groupMappingKinds = ['roles', 'organization'] as const satisfies readonly ScimGroupMapping['kind'][];
export type GroupMappingKind = (typeof groupMappingKinds)[number];

export type ProvisioningForm = {
  connectionName: string;
  mapping: GroupMappingKind;
  /** The organization of an `organization` mapping; '' while none is chosen (and for `roles`). */
  organizationId: string;
  deprovision: ScimDeprovisionMode;
};

/** The API's group mapping of the form's choice. */
export function groupMappingOf(values: Pick<ProvisioningForm, 'mapping' | 'organizationId'>): ScimGroupMapping {
  return values.mapping === 'organization'
    ? { kind: 'organization', organizationId: values.organizationId }
    : { kind: 'roles' };
}

export const provisioningFormSchema = z
  .object({
    connectionName: requiredBy(scimConnectionCreateSchema.shape.name, 'too_long'),
    mapping: z.enum(groupMappingKinds),
    organizationId: z.string(),
    deprovision: z.enum(scimDeprovisionModes),
  })
  .superRefine((values, context) => {
    // The only way the shared mapping schema refuses what this form can hold: no organization chosen.
    if (!scimGroupMappingSchema.safeParse(groupMappingOf(values)).success) {
      context.addIssue({ code: 'custom', path: ['organizationId'], message: 'organization' });
    }
  });

/** The form of a new connection: named after its SSO connector, tenant roles, suspend (the API's defaults). */
export function toProvisioningForm(connection: ScimConnection | null, connectorName: string): ProvisioningForm {
  const mapping = connection?.groupMapping ?? { kind: 'roles' };
  return {
    connectionName: connection?.name ?? connectorName.slice(0, 128),
    mapping: mapping.kind,
    organizationId: mapping.kind === 'organization' ? mapping.organizationId : '',
    deprovision: connection?.deprovision ?? 'suspend',
  };
}

export function scimCreateOf(values: ProvisioningForm, ssoConnectorId: string): ScimConnectionCreate {
  return {
    name: values.connectionName.trim(),
    ssoConnectorId,
    groupMapping: groupMappingOf(values),
    deprovision: values.deprovision,
  };
}

/** The PATCH: every setting the form shows (the server replaces each field given). */
export function scimPatchOf(values: ProvisioningForm): ScimConnectionPatch {
  return { name: values.connectionName.trim(), groupMapping: groupMappingOf(values), deprovision: values.deprovision };
}

/** A refusal's API path (`groupMapping.organizationId`) → the form's field. */
export function provisioningFieldOf(apiPath: string): keyof ProvisioningForm | undefined {
  const [head, key] = apiPath.split('.');
  if (head === 'name') return 'connectionName';
  if (head === 'deprovision') return 'deprovision';
  if (head === 'groupMapping') return key === 'organizationId' ? 'organizationId' : 'mapping';
  return undefined;
}
