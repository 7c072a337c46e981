import { invitationStatusUpdateSchema, inviteeInvitationSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { writeContext } from '../../http/write-context.ts';
import {
  acceptInviteeInvitation,
  getInviteeInvitation,
  listInviteeInvitations,
} from '../../services/tenant-invitations.ts';
import { adminTenant } from '../../services/tenants.ts';
import { type CloudDeps, idParams, tags } from './shared.ts';

/** The invitee's side (spec §2.7, §4): invitations to the signed-in account's email, and accepting one. */

const mismatch = {
  403: jsonResponse(
    z.object({ code: z.string(), message: z.string() }),
    'Sent to another email (`organization_invitation.email_mismatch`).',
  ),
};

const listInvitations = createRoute({
  method: 'get',
  path: '/invitations',
  tags,
  summary: "Invitations sent to the signed-in account's primary email",
  responses: { 200: jsonResponse(z.array(inviteeInvitationSchema), 'Newest first.'), ...errorResponses },
});

const getInvitation = createRoute({
  method: 'get',
  path: '/invitations/{id}',
  tags,
  summary: 'One of your invitations',
  request: { params: idParams },
  responses: {
    200: jsonResponse(inviteeInvitationSchema, 'The invitation.'),
    ...errorResponses,
    ...mismatch,
    ...notFoundResponse,
  },
});

const acceptInvitation = createRoute({
  method: 'patch',
  path: '/invitations/{id}/status',
  tags,
  summary: 'Accept one of your pending invitations: you join the tenant with its role',
  request: { params: idParams, body: jsonBody(invitationStatusUpdateSchema) },
  responses: {
    200: jsonResponse(inviteeInvitationSchema, 'The invitation (Accepted).'),
    ...errorResponses,
    ...mismatch,
    ...notFoundResponse,
    422: jsonResponse(
      z.object({ code: z.string(), message: z.string() }),
      'Not pending (`organization_invitation.invalid_status`, `organization_invitation.expired`).',
    ),
  },
});

export function cloudInvitationsRoutes({ db }: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listInvitations, async (c) =>
      c.json(await listInviteeInvitations(db, adminTenant(db), c.get('auth').actor.id), 200),
    )
    .openapi(getInvitation, async (c) =>
      c.json(await getInviteeInvitation(db, adminTenant(db), c.get('auth').actor.id, c.req.valid('param').id), 200),
    )
    .openapi(acceptInvitation, async (c) => {
      const accepted = await acceptInviteeInvitation(
        db,
        writeContext(c),
        c.get('auth').actor.id,
        c.req.valid('param').id,
        c.req.valid('json'),
      );
      return c.json(accepted, 200);
    });
}
