import { type DataEntity, dataEntities, type HookEvent, hookEvents, interactionEvents } from '@gatehouse/schemas';

/** Spec §9 events in groups a reader scans: the sign-in flows, then one group per kind of entity. */
export type EventGroup = { key: 'interaction' | DataEntity; events: readonly HookEvent[] };

export const eventGroups: readonly EventGroup[] = [
  { key: 'interaction', events: interactionEvents },
  ...dataEntities.map((entity) => ({
    key: entity,
    // Its created/updated/deleted events and its relation changes ('Role.Scopes.Updated').
    events: hookEvents.filter((event) => event.startsWith(`${entity}.`)),
  })),
];

/** The translation key of webhooks:events for an event: the action part of a data event, or the flow's name. */
export function eventActionKey(event: HookEvent) {
  const dot = event.indexOf('.');
  return (dot === -1 ? event : event.slice(dot + 1)) as
    | (typeof interactionEvents)[number]
    | 'Created'
    | 'Deleted'
    | 'Data.Updated'
    | 'Scopes.Updated'
    | 'Membership.Updated';
}

export const isHookEvent = (value: string | null): value is HookEvent => hookEvents.some((event) => event === value);
