import {
  invitationMessagePayloadSchema,
  organizationInvitationCreateSchema,
  organizationInvitationListQuerySchema,
  organizationInvitationSchema,
  organizationInvitationStatusSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as invitationService from '../services/organization-invitations.ts';

/** Invitations to join an organization: create, list, read, accept or revoke, resend, delete. */

const tags = ['Organization invitations'];
const idParams = z.object({ id: pathIdSchema });

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
    422: errorResponse(
      'The organization, inviter or a role does not exist (`entity.relation_foreign_key_not_found`, data.ids), already invited (`organization_invitation.pending_exists`), already a member (`organization_invitation.already_member`) or a machine-to-machine role (`organization_role.invalid_type`).',
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
    404: errorResponse('No such invitation (`entity.not_exists_with_id`).'),
    422: errorResponse(
      'No such user (`entity.relation_foreign_key_not_found`), not pending (`organization_invitation.expired`, `organization_invitation.invalid_status`, data.status) or the user has another email (`organization_invitation.email_mismatch`).',
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
    422: errorResponse(
      'The invitation is not pending (`organization_invitation.expired`, `organization_invitation.invalid_status`).',
    ),
  },
});

export const organizationInvitationsRoutes = createRouter()
  .openapi(createInvitation, async (c) => {
    return c.json(await invitationService.createInvitation(writeContext(c), c.req.valid('json')), 201);
  })
  .openapi(listInvitations, async (c) => {
    const query = c.req.valid('query');
    const rows = await listPage(c, invitationService.invitationList(c.get('tenant'), query), query);
    return c.json(await invitationService.toInvitations(c.get('tenant'), rows), 200);
  })
  .openapi(getInvitation, async (c) => {
    return c.json(await invitationService.getInvitation(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(deleteInvitation, async (c) => {
    await invitationService.deleteInvitation(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(changeStatus, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await invitationService.changeInvitationStatus(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(sendMessage, async (c) => {
    await invitationService.requestInvitationMessage(writeContext(c), c.req.valid('param').id, c.req.valid('json'));
    return c.body(null, 204);
  });
