import type { Log } from '@gatehouse/schemas';

/**
 * Someone or something an entry names, as the page shows it: by name, linking to its page when it still exists in
 * the tenant, and by id only when nothing better is known.
 */
export type LogReference = {
  /**
   * A user or application of the tenant, a console admin (a user of the admin tenant, who has no page here),
   * Gatehouse itself (`system`), a SCIM provisioning connection (`scim`: a directory such as Entra ID or Okta), or the
   * entity an admin write changed (`type` says which kind).
   */
  kind: 'user' | 'application' | 'admin' | 'system' | 'scim' | 'entity';
  id: string;
  /** The entity's kind as the server records it (`Role`, `Hook`…). */
  type?: string | undefined;
  name: string | undefined;
  /** Its page, relative to the tenant (resolve with useTenantPath): only for one the tenant still holds. */
  to: string | undefined;
};

/**
 * The pages of what an entry names, relative to the tenant (resolve with useTenantPath), by kind: `User` and
 * `Application` (an actor, `userId`, `applicationId`) and the entity types of `payload.entity.type` (`Role`, `Hook`…).
 * The kit knows no routes: the pages hand it theirs (pages/audit-logs/log-links.ts). A kind without one is not linked.
 */
export type LogLinks = Readonly<Record<string, (id: string) => string>>;

/** Kinds of entity the list names in words (the rest show as the server records them, `SignInExperience`). */
export const entityTypes = [
  'User',
  'Application',
  'Role',
  'Organization',
  'OrganizationRole',
  'OrganizationScope',
  'Resource',
  'Scope',
  'Hook',
  'Connector',
  'SsoConnector',
] as const;
export type EntityType = (typeof entityTypes)[number];
export const isEntityType = (type: string): type is EntityType => entityTypes.some((known) => known === type);

/** Names of console admins the console knows (the signed-in admin, the tenant's members), by user id. */
export type AdminNames = ReadonlyMap<string, string>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Who did it. An admin write names its actor: a console admin (a user token of the admin tenant, recorded with the
 * name the token carried; older entries are named by the admins the console knows), a machine application of the
 * tenant, or Gatehouse itself. Sign-ins and token requests have no actor: the user who signed in, else the
 * application that asked.
 */
export function logActor(log: Log, admins: AdminNames, links: LogLinks): LogReference | undefined {
  const { actor, userId, applicationId } = log.payload;
  const names = log.names ?? {};
  if (actor?.type === 'system') return { kind: 'system', id: actor.id, name: undefined, to: undefined };
  // A directory's change through SCIM: the connection, by the name it had then (its page is its SSO connector's).
  if (actor?.type === 'scim') return { kind: 'scim', id: actor.id, name: text(actor.name), to: undefined };
  if (actor?.type === 'application') return tenantApplication(actor.id, names.actor, links);
  if (actor?.type === 'user') return userActor(actor, names.actor, admins, links);
  if (userId) return tenantUser(userId, names.user, links);
  if (applicationId) return tenantApplication(applicationId, names.application, links);
  return undefined;
}

/**
 * The user of an entry (a logs tab's user column): the one who signed in or asked for a token, else the user who
 * made an admin write, a console admin unless the tenant names them.
 */
export function logUser(log: Log, admins: AdminNames, links: LogLinks): LogReference | undefined {
  const { actor, userId } = log.payload;
  const names = log.names ?? {};
  if (actor?.type === 'user' && (userId === undefined || userId === actor.id)) {
    return userActor(actor, names.actor ?? names.user, admins, links);
  }
  return userId ? tenantUser(userId, names.user, links) : undefined;
}

/**
 * What an admin write changed. Named by the tenant when it still exists (and then linked, where it has a page);
 * once deleted, by the name its last recorded state had; by id when neither says.
 */
export function logSubject(log: Log, links: LogLinks): LogReference | undefined {
  const { entity, before, after } = log.payload;
  if (!entity) return undefined;
  const current = log.names?.entity;
  return {
    kind: 'entity',
    type: entity.type,
    id: entity.id,
    name: current ?? recordedName(after, entity.id) ?? recordedName(before, entity.id),
    to: current ? pageOf(links, entity.type, entity.id) : undefined,
  };
}

/** The application of an entry: the one signed in to, asked for a token, or the machine app that made a write. */
export function logApplication(log: Log, links: LogLinks): LogReference | undefined {
  const { applicationId, actor } = log.payload;
  const id = applicationId ?? (actor?.type === 'application' ? actor.id : undefined);
  if (!id) return undefined;
  return tenantApplication(id, log.names?.application ?? (actor?.id === id ? log.names?.actor : undefined), links);
}

/** A user who made a write: one of the tenant when it names them (the admin tenant's own log), else a console admin. */
function userActor(
  actor: { id: string; name?: string | undefined },
  tenantName: string | undefined,
  admins: AdminNames,
  links: LogLinks,
): LogReference {
  if (tenantName) return tenantUser(actor.id, tenantName, links);
  // The name the admin's token carried when they made the change, else the one the console knows now.
  return { kind: 'admin', id: actor.id, name: text(actor.name) ?? admins.get(actor.id), to: undefined };
}

function tenantUser(id: string, name: string | undefined, links: LogLinks): LogReference {
  return { kind: 'user', id, name, to: name ? pageOf(links, 'User', id) : undefined };
}

function tenantApplication(id: string, name: string | undefined, links: LogLinks): LogReference {
  return { kind: 'application', id, name, to: name ? pageOf(links, 'Application', id) : undefined };
}

function pageOf(links: LogLinks, kind: string, id: string): string | undefined {
  return Object.hasOwn(links, kind) ? links[kind]?.(id) : undefined;
}

/**
 * What a recorded state called the entity: its name, else a user's username or email, else an SSO connector's. Only
 * a state that is the entity itself (its `id`): a relation's state is a list of ids, a secret's its own record.
 */
function recordedName(state: unknown, id: string): string | undefined {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
  const record = state as Record<string, unknown>;
  if (record.id !== id) return undefined;
  return text(record.name) ?? text(record.username) ?? text(record.primaryEmail) ?? text(record.connectorName);
}
