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
 * Events of the reference API that Gatehouse does not fire yet (areas not built: adaptive MFA, suspension as its own
 * event, trusted devices, identifier lockout, message rate limits, grant limits). A hook may subscribe to them (a
 * client written for the reference creates such hooks with the reference's whole list, issues 24 and 43); they simply
 * never fire. The console offers `hookEvents`.
 */
export const reservedHookEvents = [
  'PostSignInAdaptiveMfaTriggered',
  'User.SuspensionStatus.Updated',
  'TrustedDevice.Created',
  'TrustedDevice.Deleted',
  'Identifier.Lockout',
  'Message.RateLimited',
  'Grant.LimitExceeded',
] as const;
export type ReservedHookEvent = (typeof reservedHookEvents)[number];
/** Every event name a hook may subscribe to: the ones fired and the reserved ones. */
export type AcceptedHookEvent = HookEvent | ReservedHookEvent;
export const acceptedHookEvents: readonly AcceptedHookEvent[] = [...hookEvents, ...reservedHookEvents];

/**
 * Outbox events for the server itself, never offered to webhooks (no hook can subscribe to them):
 * an organization invitation email to send. The webhook worker must leave them to their consumer.
 */
export const internalOutboxEvents = ['OrganizationInvitation.MessageRequested'] as const;
export type InternalOutboxEvent = (typeof internalOutboxEvents)[number];
