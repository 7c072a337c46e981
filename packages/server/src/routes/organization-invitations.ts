import {
  errorBodySchema,
  generateId,
  idSchema,
  invitationMessagePayloadSchema,
  type OrganizationInvitation,
  organizationInvitationCreateSchema,
  organizationInvitationListQuerySchema,
  organizationInvitationSchema,
  organizationInvitationStatusSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { organizationInvitations, organizations, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import {
  acceptInvitation,
  assertPending,
  decide,
  expireOverdue,
  findInvitation,
  inviteeIs,
  queueInvitationMessage,
  statusCondition,
  toInvitation,
  toInvitations,
} from '../services/organization-invitations.ts';
import { memberWithEmail } from '../services/organization-members.ts';
import { addIds } from '../services/organization-relations.ts';
import { findOrganizationRoles, invitationRolesOf } from '../services/organizations.ts';
import { type DomainEvent, performWrite } from '../services/write-path.ts';

/** Invitations to join an organization: create, list, read, accept or revoke, resend, delete. */

const tags = ['Organization invitations'];
const idParams = z.object({ id: idSchema });

const errors = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});

const createInvitation = createRoute({
  method: 'post',
  path: '/organization-invitations',
  tags,
  summary: 'Invite an email address to an organization',
  description:
    'With `messagePayload` (an object of template values such as `link`), the invitation email is queued in the same transaction; without it (or with `false`) no email is sent.',
  request: { body: jsonBody(organizationInvitationCreateSchema) },
  responses: {
    201: jsonResponse(organizationInvitationSchema, 'The new invitation (Pending).'),
    ...errorResponses,
    404: errors(
      'The organization, inviter or a role does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
    ),
    422: errors(
      'Already invited (`organization_invitation.pending_exists`), already a member (`organization_invitation.already_member`) or a machine-to-machine role (`organization_role.invalid_type`).',
    ),
  },
});

const listInvitations = createRoute({
  method: 'get',
  path: '/organization-invitations',
  tags,
  summary: 'List invitations, newest first',
  description: 'Filters: `organizationId`, `inviterId`, `invitee` (the exact email, any case) and `status`.',
  request: { query: organizationInvitationListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationInvitationSchema), 'A page of invitations, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const getInvitation = createRoute({
  method: 'get',
  path: '/organization-invitations/{id}',
  tags,
  summary: 'Get an invitation',
  request: { params: idParams },
  responses: {
    200: jsonResponse(organizationInvitationSchema, 'The invitation.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const deleteInvitation = createRoute({
  method: 'delete',
  path: '/organization-invitations/{id}',
  tags,
  summary: 'Delete an invitation (in any status)',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const changeStatus = createRoute({
  method: 'put',
  path: '/organization-invitations/{id}/status',
  tags,
  summary: 'Accept (for the user with the invited email) or revoke a pending invitation',
  description:
    "Accepting makes the user a member with the invitation's roles in the same transaction. Only a Pending invitation changes; an Expired, Accepted or Revoked one answers 422.",
  request: { params: idParams, body: jsonBody(organizationInvitationStatusSchema) },
  responses: {
    200: jsonResponse(organizationInvitationSchema, 'The invitation after the change.'),
    ...errorResponses,
    404: errors('No such invitation (`entity.not_found`) or user (`entity.relation_foreign_key_not_found`).'),
    422: errors(
      'Not pending (`organization_invitation.expired`, `organization_invitation.invalid_status`, data.status) or the user has another email (`organization_invitation.email_mismatch`).',
    ),
  },
});

const sendMessage = createRoute({
  method: 'post',
  path: '/organization-invitations/{id}/message',
  tags,
  summary: 'Send the invitation email again, with these template values',
  request: { params: idParams, body: jsonBody(invitationMessagePayloadSchema) },
  responses: {
    204: { description: 'Queued.' },
    ...errorResponses,
    ...notFoundResponse,
    422: errors(
      'The invitation is not pending (`organization_invitation.expired`, `organization_invitation.invalid_status`).',
    ),
  },
});

/** 404 `entity.relation_foreign_key_not_found` (data.ids) unless the row the body names exists. */
function assertReferenced(row: unknown, id: string): void {
  if (!row) throw new ApiError(404, 'entity.relation_foreign_key_not_found', { ids: [id] });
}

/** 422 when a user with this email is already a member: there is nothing to invite them to. */
async function assertNotMember(tx: TenantDb, organizationId: string, invitee: string) {
  const member = await memberWithEmail(tx, organizationId, invitee);
  if (member) throw new ApiError(422, 'organization_invitation.already_member', { ids: [member.id] });
}

/** The audit image of an invitation: its API shape without `updatedAt`, which every change moves. */
function auditImage(invitation: OrganizationInvitation): Record<string, unknown> {
  const { updatedAt: _moved, ...image } = invitation;
  return image;
}

export const organizationInvitationsRoutes = createRouter()
  .openapi(createInvitation, async (c) => {
    const ctx = writeContext(c);
    const invitation = await performWrite(
      ctx,
      {
        key: 'Admin.OrganizationInvitation.Created',
        schema: organizationInvitationCreateSchema,
        input: c.req.valid('json'),
      },
      async (tx, input) => {
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
      },
    );
    return c.json(invitation, 201);
  })
  .openapi(listInvitations, async (c) => {
    const query = c.req.valid('query');
    const t = organizationInvitations;
    const conditions = [
      query.organizationId ? eq(t.organizationId, query.organizationId) : undefined,
      query.inviterId ? eq(t.inviterId, query.inviterId) : undefined,
      query.invitee ? inviteeIs(query.invitee) : undefined,
      query.status ? statusCondition(query.status) : undefined,
    ].filter((condition): condition is SQL => Boolean(condition));
    const rows = await listPage(c, t, query, {
      where: conditions.length ? and(...conditions) : undefined,
      orderBy: [desc(t.createdAt), desc(t.id)],
    });
    return c.json(await toInvitations(c.get('tenant'), rows), 200);
  })
  .openapi(getInvitation, async (c) => {
    const tenant = c.get('tenant');
    return c.json(await toInvitation(tenant, await findInvitation(tenant, c.req.valid('param').id)), 200);
  })
  .openapi(deleteInvitation, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationInvitation.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const before = auditImage(await toInvitation(tx, await findInvitation(tx, id)));
        await tx.delete(organizationInvitations, eq(organizationInvitations.id, id));
        return { result: undefined, entity: { type: 'OrganizationInvitation', id }, before, after: null };
      },
    );
    return c.body(null, 204);
  })
  .openapi(changeStatus, async (c) => {
    const { id } = c.req.valid('param');
    const invitation = await performWrite(
      writeContext(c),
      {
        key: 'Admin.OrganizationInvitation.Updated',
        schema: organizationInvitationStatusSchema,
        input: c.req.valid('json'),
      },
      async (tx, input) => {
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
        return {
          result: after,
          entity: { type: 'OrganizationInvitation', id },
          before,
          after: auditImage(after),
          events,
        };
      },
    );
    return c.json(invitation, 200);
  })
  .openapi(sendMessage, async (c) => {
    const { id } = c.req.valid('param');
    const ctx = writeContext(c);
    await performWrite(
      ctx,
      {
        key: 'Admin.OrganizationInvitation.MessageRequested',
        schema: invitationMessagePayloadSchema,
        input: c.req.valid('json'),
      },
      async (tx, payload) => {
        const row = await findInvitation(tx, id);
        assertPending(row);
        await queueInvitationMessage(tx, ctx.actor, row, payload);
        return {
          result: undefined,
          entity: { type: 'OrganizationInvitation', id },
          before: null,
          after: { messagePayload: payload },
        };
      },
    );
    return c.body(null, 204);
  });
