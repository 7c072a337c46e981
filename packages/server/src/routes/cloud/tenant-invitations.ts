import {
  tenantInvitationCreateSchema,
  tenantInvitationDeliverySchema,
  tenantInvitationSchema,
} from '@gatehouse/schemas';
import type { Context } from 'hono';
import { z } from 'zod';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { writeContext } from '../../http/write-context.ts';
import {
  createTenantInvitations,
  listTenantInvitations,
  resendTenantInvitation,
  revokeTenantInvitation,
  tenantInvitationDelivery,
} from '../../services/tenant-invitations.ts';
import { adminTenant } from '../../services/tenants.ts';
import type { AppEnv } from '../../shared/app-env.ts';

import { type CloudDeps, idParams, tags } from './shared.ts';
import { tenantRoute } from './tenant-access.ts';

/**
 * Invitations to a tenant (tenant permission `invite:member`): list, invite with an email, revoke, resend, and whether
 * the email goes out at all.
 */

const invitationParams = idParams.extend({ invitationId: z.string().min(1).max(64) });
const notPending = {
  422: jsonResponse(
    z.object({ code: z.string(), message: z.string() }),
    'Already a member, already invited, or not pending (`organization_invitation.*`).',
  ),
};

const listInvitations = tenantRoute({
  access: 'invite:member',
  method: 'get',
  path: '/tenants/{id}/invitations',
  tags,
  summary: "A tenant's invitations, newest first",
  request: { params: idParams },
  responses: {
    200: jsonResponse(z.array(tenantInvitationSchema), 'Invitations.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createInvitations = tenantRoute({
  access: 'invite:member',
  method: 'post',
  path: '/tenants/{id}/invitations',
  tags,
  summary: 'Invite emails with a role; each gets an email with a link to the console (valid 7 days)',
  description:
    'No email goes out when the server has no email sender (`GET /tenants/{id}/invitation-delivery`); the ' +
    'invitations are created all the same, and their links are `/console/accept/{invitationId}`.',
  request: { params: idParams, body: jsonBody(tenantInvitationCreateSchema) },
  responses: {
    201: jsonResponse(z.array(tenantInvitationSchema), 'One invitation per email.'),
    ...errorResponses,
    ...notFoundResponse,
    ...notPending,
  },
});

const getDelivery = tenantRoute({
  access: 'invite:member',
  method: 'get',
  path: '/tenants/{id}/invitation-delivery',
  tags,
  summary: "Whether the tenant's invitations are emailed",
  description:
    'True when the server can send email (SMTP_URL, or an email connector of the admin tenant). When false, ' +
    'invitations are still created, but no email goes out: share each link (`/console/accept/{invitationId}`) by hand.',
  request: { params: idParams },
  responses: {
    200: jsonResponse(tenantInvitationDeliverySchema, 'How invitations reach people.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const revokeInvitation = tenantRoute({
  access: 'invite:member',
  method: 'delete',
  path: '/tenants/{id}/invitations/{invitationId}',
  tags,
  summary: 'Revoke a pending invitation',
  request: { params: invitationParams },
  responses: { 204: { description: 'Revoked.' }, ...errorResponses, ...notFoundResponse, ...notPending },
});

const resendInvitation = tenantRoute({
  access: 'invite:member',
  method: 'post',
  path: '/tenants/{id}/invitations/{invitationId}/message',
  tags,
  summary: 'Send the invitation email again',
  request: { params: invitationParams },
  responses: { 204: { description: 'Queued.' }, ...errorResponses, ...notFoundResponse, ...notPending },
});

/** The email's link base and language (the inviter's interface language). */
const mailOptions = (c: Context<AppEnv>) => ({ publicUrl: c.get('config').publicUrl, locale: c.get('language') });

export function cloudTenantInvitationsRoutes({ db }: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listInvitations, async (c) =>
      c.json(await listTenantInvitations(adminTenant(db), c.req.valid('param').id), 200),
    )
    .openapi(createInvitations, async (c) => {
      const { id } = c.req.valid('param');
      const userId = c.get('auth').actor.id;
      const created = await createTenantInvitations(writeContext(c), id, userId, c.req.valid('json'), mailOptions(c));
      return c.json(created, 201);
    })
    .openapi(getDelivery, async (c) =>
      // The cloud API's tenant is the admin tenant, which sends the invitations (services/mail-worker.ts).
      c.json(await tenantInvitationDelivery(c.get('delivery'), c.get('tenant')), 200),
    )
    .openapi(revokeInvitation, async (c) => {
      const { id, invitationId } = c.req.valid('param');
      await revokeTenantInvitation(writeContext(c), id, invitationId);
      return c.body(null, 204);
    })
    .openapi(resendInvitation, async (c) => {
      const { id, invitationId } = c.req.valid('param');
      await resendTenantInvitation(writeContext(c), id, invitationId, mailOptions(c));
      return c.body(null, 204);
    });
}
