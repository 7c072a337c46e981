import type { Resource, ResourcePatch } from '@gatehouse/schemas';

/** The general tab's form values, from the resource as the API returns it. */
export type GeneralFormValues = Pick<Resource, 'name' | 'accessTokenTtl' | 'isDefault'>;

export function toGeneralForm(resource: Resource): GeneralFormValues {
  return { name: resource.name, accessTokenTtl: resource.accessTokenTtl, isDefault: resource.isDefault };
}

/**
 * What saving sends: only the fields that changed (an unchanged save writes no audit entry), and the default flag
 * apart, since it has its own route.
 */
export function generalChanges(
  resource: Resource,
  values: GeneralFormValues,
): { patch: ResourcePatch; isDefault: boolean | undefined } {
  const patch: ResourcePatch = {};
  if (values.name !== resource.name) patch.name = values.name;
  if (values.accessTokenTtl !== resource.accessTokenTtl) patch.accessTokenTtl = values.accessTokenTtl;
  return { patch, isDefault: values.isDefault === resource.isDefault ? undefined : values.isDefault };
}
