/** Spec §9 webhook events; data events follow the reference API's names (`Role.Data.Updated`). */
export const interactionEvents = ['PostRegister', 'PostSignIn', 'PostResetPassword'] as const;
export const dataEntities = ['User', 'Role', 'Scope', 'Organization', 'OrganizationRole', 'OrganizationScope'] as const;
export type DataEntity = (typeof dataEntities)[number];
export type DataEvent = `${DataEntity}.Created` | `${DataEntity}.Deleted` | `${DataEntity}.Data.Updated`;
/**
 * Relation changes the reference API reports as their own update events: a role's permissions, an
 * organization's members or applications, an organization role's permissions.
 */
export const relationEvents = [
  'Role.Scopes.Updated',
  'Organization.Membership.Updated',
  'OrganizationRole.Scopes.Updated',
] as const;
export type HookEvent = (typeof interactionEvents)[number] | DataEvent | (typeof relationEvents)[number];

export const dataEvents: readonly DataEvent[] = dataEntities.flatMap((entity) => [
  `${entity}.Created` as const,
  `${entity}.Deleted` as const,
  `${entity}.Data.Updated` as const,
]);
export const hookEvents: readonly HookEvent[] = [...interactionEvents, ...dataEvents, ...relationEvents];

/**
 * Outbox events for the server itself, never offered to webhooks (no hook can subscribe to them):
 * an organization invitation email to send. The webhook worker must leave them to their consumer.
 */
export const internalOutboxEvents = ['OrganizationInvitation.MessageRequested'] as const;
export type InternalOutboxEvent = (typeof internalOutboxEvents)[number];
