import {
  type Actor,
  DomainError,
  generateId,
  type InternalOutboxEvent,
  type InvitationMessagePayload,
  type Miss,
  notFound,
  type OrganizationInvitation,
  type OrganizationInvitationCreate,
  type OrganizationInvitationStatus,
  type OrganizationInvitationStatusChange,
  rowNotFound,
} from '@gatehouse/schemas';
import { and, desc, eq, gt, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { allOf, anyOf } from '../db/conditions.ts';
import { organizationInvitationRoles, organizationInvitations, organizations, outbox, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, type ListSource, tableList } from './list-query.ts';
import { membershipEvent, memberWithEmail } from './organization-members.ts';
import { addIds } from './organization-relations.ts';
import { findOrganizationRoles, invitationRolesOf, memberRolesOf, membersOf, rolesPerOwner } from './organizations.ts';
import { type DomainEvent, performWrite, type WriteContext } from './write-path.ts';

/**
 * Organization invitations (spec §3, §4). A stored status is Pending, Accepted, Revoked or
 * Expired; a Pending invitation whose `expiresAt` has passed reads as Expired, so expiry needs no
 * job. Only a Pending invitation becomes Accepted or Revoked.
 */

export type InvitationRow = typeof organizationInvitations.$inferSelect;

export function effectiveStatus(row: InvitationRow, now = Date.now()): OrganizationInvitationStatus {
  if (row.status === 'Pending' && row.expiresAt.getTime() <= now) return 'Expired';
  return row.status as OrganizationInvitationStatus;
}

/** The list filter `status`, with expiry decided by the database clock like the writes. */
export function statusCondition(status: OrganizationInvitationStatus): SQL {
  const t = organizationInvitations;
  switch (status) {
    case 'Pending':
      return allOf(eq(t.status, 'Pending'), gt(t.expiresAt, sql`now()`));
    case 'Expired':
      return anyOf(eq(t.status, 'Expired'), and(eq(t.status, 'Pending'), lte(t.expiresAt, sql`now()`)));
    default:
      return eq(t.status, status);
  }
}

/** `lower(invitee) = lower(email)`: an email address is one person whatever its case. */
export const inviteeIs = (email: string) => sql`lower(${organizationInvitations.invitee}) = lower(${email})`;

/** API shapes of invitations with their roles (one query for the roles of a whole page). */
export async function toInvitations(tx: TenantDb, rows: readonly InvitationRow[]): Promise<OrganizationInvitation[]> {
  const links = rows.length
    ? await tx.findMany(organizationInvitationRoles, {
        where: inArray(
          organizationInvitationRoles.invitationId,
          rows.map((row) => row.id),
        ),
      })
    : [];
  const roles = await rolesPerOwner(
    tx,
    links,
    (link) => link.invitationId,
    (link) => link.organizationRoleId,
  );
  return rows.map((row) => ({
    ...row,
    status: effectiveStatus(row),
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    organizationRoles: roles.get(row.id) ?? [],
  }));
}

export async function toInvitation(tx: TenantDb, row: InvitationRow): Promise<OrganizationInvitation> {
  const [invitation] = await toInvitations(tx, [row]);
  if (!invitation) throw new Error('an invitation maps to itself');
  return invitation;
}

/** The invitation, or 404: the reference's generic finder (`entity.not_exists_with_id`) unless `miss` says otherwise. */
export async function findInvitation(tx: TenantDb, id: string, miss: Miss = notFound): Promise<InvitationRow> {
  const row = await tx.findOne(organizationInvitations, eq(organizationInvitations.id, id));
  if (!row) throw miss();
  return row;
}

/** 422 unless the invitation is still pending: `expired` when its time ran out, else `invalid_status`. */
export function assertPending(row: InvitationRow): void {
  const status = effectiveStatus(row);
  if (status === 'Expired') throw new DomainError('unprocessable', 'organization_invitation.expired', { status });
  if (status !== 'Pending')
    throw new DomainError('unprocessable', 'organization_invitation.invalid_status', { status });
}

/**
 * Marks the person's past-due Pending invitations to the organization Expired, so that the
 * one-open-invitation rule (a partial unique index on Pending rows) lets a new one in.
 */
export async function expireOverdue(tx: TenantDb, organizationId: string, invitee: string): Promise<void> {
  await tx.update(
    organizationInvitations,
    allOf(
      eq(organizationInvitations.organizationId, organizationId),
      inviteeIs(invitee),
      eq(organizationInvitations.status, 'Pending'),
      lte(organizationInvitations.expiresAt, sql`now()`),
    ),
    { status: 'Expired', updatedAt: new Date() },
  );
}

/**
 * Moves a Pending invitation to `status` in one conditional statement, so two concurrent
 * decisions cannot both win; the loser gets the 422 of the state the winner left.
 */
export async function decide(
  tx: TenantDb,
  row: InvitationRow,
  change: { status: 'Accepted' | 'Revoked'; acceptedUserId?: string },
): Promise<InvitationRow> {
  const [updated] = await tx.update(
    organizationInvitations,
    allOf(
      eq(organizationInvitations.id, row.id),
      eq(organizationInvitations.status, 'Pending'),
      gt(organizationInvitations.expiresAt, sql`now()`),
    ),
    { status: change.status, acceptedUserId: change.acceptedUserId ?? null, updatedAt: new Date() },
  );
  if (updated) return updated;
  assertPending(await findInvitation(tx, row.id));
  // Still pending by this process's clock but expired by the database's: report it as expired.
  throw new DomainError('unprocessable', 'organization_invitation.expired', { status: 'Expired' });
}

/**
 * Accepting: the user whose email the invitation was sent to joins the organization (if not a
 * member yet) with the invitation's roles (those not held yet), in the caller's transaction.
 */
export async function acceptInvitation(
  tx: TenantDb,
  row: InvitationRow,
  userId: string,
): Promise<{ invitation: InvitationRow; events: DomainEvent[] }> {
  assertPending(row);
  const user = await tx.findOne(users, eq(users.id, userId));
  if (!user) throw new DomainError('unprocessable', 'entity.relation_foreign_key_not_found', { ids: [userId] });
  if (user.primaryEmail?.toLowerCase() !== row.invitee.toLowerCase()) {
    throw new DomainError('unprocessable', 'organization_invitation.email_mismatch');
  }
  const invitation = await decide(tx, row, { status: 'Accepted', acceptedUserId: userId });
  const joined = await addIds(tx, membersOf(row.organizationId), [userId]);
  const roles = await tx.findMany(organizationInvitationRoles, {
    where: eq(organizationInvitationRoles.invitationId, row.id),
  });
  await addIds(
    tx,
    memberRolesOf(row.organizationId, userId),
    roles.map((role) => role.organizationRoleId),
  );
  return { invitation, events: membershipEvent(row.organizationId, { kind: 'users', added: joined, removed: [] }) };
}

export const INVITATION_MESSAGE_EVENT: InternalOutboxEvent = 'OrganizationInvitation.MessageRequested';

/**
 * The seam to the invitation email (sent over SMTP by the mail worker, a later piece): a row in
 * the write's outbox, committed with the invitation, that the worker claims by its event name.
 * Webhooks never see it (no hook can subscribe to internal events).
 */
export async function queueInvitationMessage(
  tx: TenantDb,
  actor: Actor,
  row: InvitationRow,
  messagePayload: InvitationMessagePayload,
): Promise<void> {
  await tx.insert(outbox, {
    event: INVITATION_MESSAGE_EVENT,
    payload: {
      event: INVITATION_MESSAGE_EVENT,
      data: {
        invitationId: row.id,
        organizationId: row.organizationId,
        invitee: row.invitee,
        expiresAt: row.expiresAt.getTime(),
        messagePayload,
      },
      actor,
      createdAt: Date.now(),
    },
  });
}

// The admin API's operations on invitations: the list, create, delete, status changes, messages.

/** 422 `entity.relation_foreign_key_not_found` (data.ids), as the reference's organization routes answer. */
function assertReferenced(row: unknown, id: string): void {
  if (!row) throw new DomainError('unprocessable', 'entity.relation_foreign_key_not_found', { ids: [id] });
}

async function assertNotMember(tx: TenantDb, organizationId: string, invitee: string) {
  const member = await memberWithEmail(tx, organizationId, invitee);
  if (member) throw new DomainError('conflict', 'organization_invitation.already_member', { ids: [member.id] });
}

/** The audit image of an invitation: without the timestamp every write moves. */
function auditImage(invitation: OrganizationInvitation): Record<string, unknown> {
  const { updatedAt: _moved, ...image } = invitation;
  return image;
}

export type InvitationFilter = {
  organizationId?: string | undefined;
  inviterId?: string | undefined;
  /** Exact email, any case. */
  invitee?: string | undefined;
  status?: OrganizationInvitationStatus | undefined;
};

/** The condition and order of GET /organization-invitations, newest first. */
export function invitationListQuery(filter: InvitationFilter): ListQuery {
  const t = organizationInvitations;
  const conditions = [
    filter.organizationId ? eq(t.organizationId, filter.organizationId) : undefined,
    filter.inviterId ? eq(t.inviterId, filter.inviterId) : undefined,
    filter.invitee ? inviteeIs(filter.invitee) : undefined,
    filter.status ? statusCondition(filter.status) : undefined,
  ].filter((condition): condition is SQL => Boolean(condition));
  return { where: conditions.length ? and(...conditions) : undefined, orderBy: [desc(t.createdAt), desc(t.id)] };
}

/** GET /organization-invitations: the rows and total of the filtered list. */
export function invitationList(tenant: TenantDb, filter: InvitationFilter): ListSource<InvitationRow> {
  return tableList(tenant, organizationInvitations, invitationListQuery(filter));
}

export async function getInvitation(tenant: TenantDb, id: string): Promise<OrganizationInvitation> {
  return toInvitation(tenant, await findInvitation(tenant, id));
}

/**
 * Invites an email address that is not yet a member: the organization, inviter and user roles must exist;
 * overdue invitations of the same address expire; with a message payload, the invitation email is queued.
 */
export function createInvitation(
  ctx: WriteContext,
  input: OrganizationInvitationCreate,
): Promise<OrganizationInvitation> {
  return performWrite(ctx, 'Admin.OrganizationInvitation.Created', async (tx) => {
    const organization = await tx.findOne(organizations, eq(organizations.id, input.organizationId));
    assertReferenced(organization, input.organizationId);
    if (input.inviterId) assertReferenced(await tx.findOne(users, eq(users.id, input.inviterId)), input.inviterId);
    const roleIds = input.organizationRoleIds ?? [];
    await findOrganizationRoles(tx, roleIds, 'User');
    await assertNotMember(tx, input.organizationId, input.invitee);
    await expireOverdue(tx, input.organizationId, input.invitee);
    const row = await tx.insert(organizationInvitations, {
      id: generateId(),
      organizationId: input.organizationId,
      invitee: input.invitee,
      inviterId: input.inviterId ?? null,
      expiresAt: new Date(input.expiresAt),
    });
    await addIds(tx, invitationRolesOf(row.id), roleIds);
    if (input.messagePayload) await queueInvitationMessage(tx, ctx.actor, row, input.messagePayload);
    const created = await toInvitation(tx, row);
    return {
      result: created,
      entity: { type: 'OrganizationInvitation', id: row.id },
      before: null,
      after: auditImage(created),
    };
  });
}

export function deleteInvitation(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.OrganizationInvitation.Deleted', async (tx) => {
    // The reference's DELETE is its generic deletion: an unknown id is `entity.not_found`.
    const before = auditImage(await toInvitation(tx, await findInvitation(tx, id, rowNotFound)));
    await tx.delete(organizationInvitations, eq(organizationInvitations.id, id));
    return { result: undefined, entity: { type: 'OrganizationInvitation', id }, before, after: null };
  });
}

/** Accepts a pending invitation for a user (who joins with its roles), or revokes it. */
export function changeInvitationStatus(
  ctx: WriteContext,
  id: string,
  input: OrganizationInvitationStatusChange,
): Promise<OrganizationInvitation> {
  return performWrite(ctx, 'Admin.OrganizationInvitation.Updated', async (tx) => {
    const row = await findInvitation(tx, id);
    const before = auditImage(await toInvitation(tx, row));
    let events: DomainEvent[] = [];
    if (input.status === 'Accepted' && input.acceptedUserId) {
      ({ events } = await acceptInvitation(tx, row, input.acceptedUserId));
    } else {
      assertPending(row);
      await decide(tx, row, { status: 'Revoked' });
    }
    const after = await toInvitation(tx, await findInvitation(tx, id));
    return { result: after, entity: { type: 'OrganizationInvitation', id }, before, after: auditImage(after), events };
  });
}

/** Queues the invitation email (again) for a pending invitation. */
export function requestInvitationMessage(
  ctx: WriteContext,
  id: string,
  payload: InvitationMessagePayload,
): Promise<void> {
  return performWrite(ctx, 'Admin.OrganizationInvitation.MessageRequested', async (tx) => {
    const row = await findInvitation(tx, id);
    assertPending(row);
    await queueInvitationMessage(tx, ctx.actor, row, payload);
    return {
      result: undefined,
      entity: { type: 'OrganizationInvitation', id },
      before: null,
      after: { messagePayload: payload },
    };
  });
}
