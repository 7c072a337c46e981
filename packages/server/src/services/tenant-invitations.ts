import {
  DomainError,
  generateId,
  type InviteeInvitation,
  invalidFields,
  invitationStatusUpdateSchema,
  notFound,
  type TenantInvitation,
  type TenantInvitationDelivery,
  type TenantTag,
  tenantIdOfOrganization,
  tenantInvitationCreateSchema,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { desc, eq, inArray, like } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { tenantRoleId } from '../db/seed.ts';
import { organizationInvitationRoles, organizationInvitations, tenants, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { MessageDelivery } from './message-delivery.ts';
import {
  acceptInvitation,
  assertPending,
  decide,
  effectiveStatus,
  expireOverdue,
  type InvitationRow,
  inviteeIs,
  queueInvitationMessage,
  statusCondition,
} from './organization-invitations.ts';
import { memberWithEmail } from './organization-members.ts';
import { addIds } from './organization-relations.ts';
import { invitationRolesOf } from './organizations.ts';
import { assertQuota } from './quota.ts';
import { strongestRole } from './tenants.ts';
import { type DomainEvent, performBatchWrite, performWrite, type WriteContext } from './write-path.ts';

/**
 * Tenant invitations: organization invitations of `t-X` in the admin tenant, so they share the
 * organization invitations' rules (one pending per email, expiry on read, one conditional decision)
 * and their email (outbox + mail worker), whose link opens the console's acceptance page.
 */

/**
 * Whether a tenant invitation's email goes out (issue 40, item 11): the mail worker sends it as the admin tenant, where
 * tenant invitations live, and marks it `not_sent` when that tenant has no email sender (neither SMTP_URL nor an email
 * connector of its own). The console asks before inviting, so it can say so and offer the links instead.
 */
export async function tenantInvitationDelivery(
  delivery: Pick<MessageDelivery, 'senders'>,
  admin: TenantDb,
): Promise<TenantInvitationDelivery> {
  return { email: (await delivery.senders(admin)).email };
}

/** Spec §9: a tenant invitation is valid for 7 days. */
export const TENANT_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The console's acceptance page; the mail worker replaces `{invitationId}`. */
export const acceptanceLink = (publicUrl: string) => `${publicUrl}/console/accept/{invitationId}`;

async function rolesOf(tx: TenantDb, rows: readonly InvitationRow[]) {
  const links = rows.length
    ? await tx.findMany(organizationInvitationRoles, {
        where: inArray(
          organizationInvitationRoles.invitationId,
          rows.map((row) => row.id),
        ),
      })
    : [];
  return (id: string) =>
    strongestRole(links.filter((link) => link.invitationId === id).map((link) => link.organizationRoleId)) ??
    'collaborator';
}

export async function toTenantInvitations(tx: TenantDb, rows: readonly InvitationRow[]): Promise<TenantInvitation[]> {
  const roleOf = await rolesOf(tx, rows);
  return rows.map((row) => ({
    id: row.id,
    invitee: row.invitee,
    status: effectiveStatus(row),
    role: roleOf(row.id),
    inviterId: row.inviterId,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  }));
}

export async function listTenantInvitations(admin: TenantDb, tenantId: string): Promise<TenantInvitation[]> {
  const rows = await admin.findMany(organizationInvitations, {
    where: eq(organizationInvitations.organizationId, tenantOrganizationId(tenantId)),
    orderBy: [desc(organizationInvitations.createdAt), desc(organizationInvitations.id)],
  });
  return toTenantInvitations(admin, rows);
}

/** A tenant's invitation, or 404 (also when it belongs to another tenant). */
async function findTenantInvitation(tx: TenantDb, tenantId: string, id: string): Promise<InvitationRow> {
  const row = await tx.findOne(
    organizationInvitations,
    allOf(
      eq(organizationInvitations.id, id),
      eq(organizationInvitations.organizationId, tenantOrganizationId(tenantId)),
    ),
  );
  if (!row) throw notFound();
  return row;
}

/**
 * Invites each email with the role, one invitation and one email each (all or nothing): 422
 * `organization_invitation.already_member` for a member, `…pending_exists` for an open invitation.
 */
export async function createTenantInvitations(
  ctx: WriteContext,
  tenantId: string,
  inviterId: string,
  input: unknown,
  options: { publicUrl: string; locale: string },
): Promise<TenantInvitation[]> {
  const parsed = tenantInvitationCreateSchema.safeParse(input);
  if (!parsed.success) throw new DomainError('invalid', 'guard.invalid_input', invalidFields(parsed.error));
  const emails = [
    ...new Map(
      (Array.isArray(parsed.data.invitee) ? parsed.data.invitee : [parsed.data.invitee]).map((email) => [
        email.toLowerCase(),
        email,
      ]),
    ).values(),
  ];
  const organizationId = tenantOrganizationId(tenantId);
  return performBatchWrite(ctx, async (tx) => {
    // Tenant invitations exist only in the cloud edition; members plus pending invitations count (spec §9).
    await assertQuota(tx, 'tenantMembersLimit', { edition: 'cloud' }, { tenantId, added: emails.length });
    const writes = [];
    for (const invitee of emails) {
      const member = await memberWithEmail(tx, organizationId, invitee);
      if (member) throw new DomainError('conflict', 'organization_invitation.already_member', { emails: [invitee] });
      await expireOverdue(tx, organizationId, invitee);
      const pending = await tx.findOne(
        organizationInvitations,
        allOf(
          eq(organizationInvitations.organizationId, organizationId),
          inviteeIs(invitee),
          statusCondition('Pending'),
        ),
      );
      if (pending) throw new DomainError('conflict', 'organization_invitation.pending_exists', { emails: [invitee] });
      const row = await tx.insert(organizationInvitations, {
        id: generateId(),
        organizationId,
        invitee,
        inviterId,
        expiresAt: new Date(Date.now() + TENANT_INVITATION_TTL_MS),
      });
      await addIds(tx, invitationRolesOf(row.id), [tenantRoleId(parsed.data.roleName)]);
      await queueInvitationMessage(tx, ctx.actor, row, {
        link: acceptanceLink(options.publicUrl),
        locale: options.locale,
      });
      const [invitation] = await toTenantInvitations(tx, [row]);
      if (!invitation) throw new Error('an invitation maps to itself');
      writes.push({
        key: 'Admin.TenantInvitation.Created' as const,
        outcome: {
          result: invitation,
          entity: { type: 'TenantInvitation', id: row.id },
          before: null,
          after: { ...invitation, tenantId },
        },
      });
    }
    return writes;
  });
}

/** Revokes a pending invitation (422 when it is not pending). */
export async function revokeTenantInvitation(ctx: WriteContext, tenantId: string, id: string): Promise<void> {
  await performWrite(ctx, 'Admin.TenantInvitation.Updated', async (tx) => {
    const row = await findTenantInvitation(tx, tenantId, id);
    const [before] = await toTenantInvitations(tx, [row]);
    assertPending(row);
    const updated = await decide(tx, row, { status: 'Revoked' });
    const [after] = await toTenantInvitations(tx, [updated]);
    return {
      result: undefined,
      entity: { type: 'TenantInvitation', id },
      before: before ?? null,
      after: after ?? null,
    };
  });
}

/** Sends the email of a pending invitation again (same link). */
export async function resendTenantInvitation(
  ctx: WriteContext,
  tenantId: string,
  id: string,
  options: { publicUrl: string; locale: string },
): Promise<void> {
  await performWrite(ctx, 'Admin.TenantInvitation.MessageRequested', async (tx) => {
    const row = await findTenantInvitation(tx, tenantId, id);
    assertPending(row);
    const messagePayload = { link: acceptanceLink(options.publicUrl), locale: options.locale };
    await queueInvitationMessage(tx, ctx.actor, row, messagePayload);
    return { result: undefined, entity: { type: 'TenantInvitation', id }, before: null, after: { messagePayload } };
  });
}

// The invitee's side (`/api/invitations`).

async function toInviteeInvitations(
  db: Database,
  admin: TenantDb,
  rows: readonly InvitationRow[],
): Promise<InviteeInvitation[]> {
  const tenantIds = [...new Set(rows.flatMap((row) => tenantIdOfOrganization(row.organizationId) ?? []))];
  const tenantRows = tenantIds.length ? await db.select().from(tenants).where(inArray(tenants.id, tenantIds)) : [];
  const byId = new Map(tenantRows.map((row) => [row.id, row]));
  const roleOf = await rolesOf(admin, rows);
  return rows.flatMap((row) => {
    const tenantId = tenantIdOfOrganization(row.organizationId);
    const tenant = tenantId ? byId.get(tenantId) : undefined;
    if (!tenantId || !tenant) return [];
    return [
      {
        id: row.id,
        organizationId: row.organizationId,
        tenantId,
        tenantName: tenant.name,
        tenantTag: tenant.tag as TenantTag,
        status: effectiveStatus(row),
        role: roleOf(row.id),
        expiresAt: row.expiresAt.getTime(),
      },
    ];
  });
}

/**
 * The account's primary email, and whether it was proven with a code (issue 39, item 6: an address typed at sign-up and
 * never proven opened the tenant an invitation to it named; the invitation's id was the only secret).
 */
async function primaryEmailOf(
  admin: TenantDb,
  userId: string,
): Promise<{ email: string; proven: boolean } | undefined> {
  const user = await admin.findOne(users, eq(users.id, userId));
  return user?.primaryEmail ? { email: user.primaryEmail, proven: user.primaryEmailVerified } : undefined;
}

const tenantInvitationsCondition = like(organizationInvitations.organizationId, 't-%');

/**
 * The invitations sent to the signed-in account's primary email (any case), newest first; none until the address is
 * proven (an unproven claim to an address learns nothing of the tenants that invited it).
 */
export async function listInviteeInvitations(db: Database, admin: TenantDb, userId: string) {
  const own = await primaryEmailOf(admin, userId);
  if (!own?.proven) return [];
  const rows = await admin.findMany(organizationInvitations, {
    where: allOf(inviteeIs(own.email), tenantInvitationsCondition),
    orderBy: [desc(organizationInvitations.createdAt), desc(organizationInvitations.id)],
  });
  return toInviteeInvitations(db, admin, rows);
}

/**
 * An invitation for its invitee: 404 when unknown, 403 `email_mismatch` when it is someone else's, 403
 * `email_not_verified` when it is to the account's address but the address is not proven yet (the console then asks
 * for a code: `POST /api/me/email/verification-code`).
 */
async function findOwnInvitation(admin: TenantDb, userId: string, id: string): Promise<InvitationRow> {
  const row = await admin.findOne(
    organizationInvitations,
    allOf(eq(organizationInvitations.id, id), tenantInvitationsCondition),
  );
  if (!row) throw notFound();
  const own = await primaryEmailOf(admin, userId);
  if (!own || own.email.toLowerCase() !== row.invitee.toLowerCase()) {
    throw new DomainError('forbidden', 'organization_invitation.email_mismatch');
  }
  if (!own.proven)
    throw new DomainError('forbidden', 'organization_invitation.email_not_verified', { email: own.email });
  return row;
}

export async function getInviteeInvitation(db: Database, admin: TenantDb, userId: string, id: string) {
  const [invitation] = await toInviteeInvitations(db, admin, [await findOwnInvitation(admin, userId, id)]);
  if (!invitation) throw notFound();
  return invitation;
}

/** Accepts an invitation: the account joins the tenant with the invitation's role, in one transaction. */
export async function acceptInviteeInvitation(
  db: Database,
  ctx: WriteContext,
  userId: string,
  id: string,
  input: unknown,
): Promise<InviteeInvitation> {
  await performWrite(
    ctx,
    { key: 'Admin.TenantInvitation.Accepted', schema: invitationStatusUpdateSchema, input },
    async (tx) => {
      const row = await findOwnInvitation(tx, userId, id);
      const [before] = await toTenantInvitations(tx, [row]);
      const { invitation, events }: { invitation: InvitationRow; events: DomainEvent[] } = await acceptInvitation(
        tx,
        row,
        userId,
      );
      const [after] = await toTenantInvitations(tx, [invitation]);
      return {
        result: undefined,
        entity: { type: 'TenantInvitation', id },
        before: before ?? null,
        after: after ?? null,
        events,
      };
    },
  );
  return getInviteeInvitation(db, ctx.tenant, userId, id);
}
