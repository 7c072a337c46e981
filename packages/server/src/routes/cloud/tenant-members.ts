import { memberScopeSchema, tenantMemberRoleUpdateSchema, tenantMemberSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { writeContext } from '../../http/write-context.ts';
import { listTenantMembers, removeTenantMember, updateTenantMemberRole } from '../../services/tenant-members.ts';
import { adminTenant, requireTenantAccess } from '../../services/tenants.ts';
import { type CloudDeps, idParams, tags } from './shared.ts';

/** A tenant's members (spec §6, §7): list, change a role, remove (or leave), read a member's tenant permissions. */

const memberParams = idParams.extend({ userId: z.string().min(1).max(64) });
const lastAdmin = {
  422: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'The last admin (`tenant.last_admin`).'),
};

const listMembers = createRoute({
  method: 'get',
  path: '/tenants/{id}/members',
  tags,
  summary: "A tenant's members with their role (tenant permission `read:member`)",
  request: { params: idParams },
  responses: {
    200: jsonResponse(z.array(tenantMemberSchema), 'Members, newest first.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const updateRole = createRoute({
  method: 'put',
  path: '/tenants/{id}/members/{userId}/roles',
  tags,
  summary: "Change a member's role (tenant permission `update:member:role`)",
  request: { params: memberParams, body: jsonBody(tenantMemberRoleUpdateSchema) },
  responses: {
    200: jsonResponse(tenantMemberSchema, 'The member.'),
    ...errorResponses,
    ...notFoundResponse,
    ...lastAdmin,
  },
});

const removeMember = createRoute({
  method: 'delete',
  path: '/tenants/{id}/members/{userId}',
  tags,
  summary: 'Remove a member (tenant permission `remove:member`), or leave the tenant (yourself)',
  request: { params: memberParams },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse, ...lastAdmin },
});

const memberScopes = createRoute({
  method: 'get',
  path: '/tenants/{id}/members/{userId}/scopes',
  tags,
  summary: "A member's tenant permissions (yourself, or with `read:member`)",
  request: { params: memberParams },
  responses: {
    200: jsonResponse(z.array(memberScopeSchema), 'Permission names.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

export function cloudTenantMembersRoutes({ db }: CloudDeps) {
  return createRouter()
    .openapi(listMembers, async (c) => {
      const { id } = c.req.valid('param');
      await requireTenantAccess(db, id, c.get('auth').actor.id, 'read:member');
      return c.json(await listTenantMembers(adminTenant(db), id), 200);
    })
    .openapi(updateRole, async (c) => {
      const { id, userId } = c.req.valid('param');
      await requireTenantAccess(db, id, c.get('auth').actor.id, 'update:member:role');
      return c.json(await updateTenantMemberRole(writeContext(c), id, userId, c.req.valid('json')), 200);
    })
    .openapi(removeMember, async (c) => {
      const { id, userId } = c.req.valid('param');
      const self = userId === c.get('auth').actor.id;
      await requireTenantAccess(db, id, c.get('auth').actor.id, self ? undefined : 'remove:member');
      await removeTenantMember(writeContext(c), id, userId);
      return c.body(null, 204);
    })
    .openapi(memberScopes, async (c) => {
      const { id, userId } = c.req.valid('param');
      const callerId = c.get('auth').actor.id;
      const caller = await requireTenantAccess(db, id, callerId, callerId === userId ? undefined : 'read:member');
      const scopes = callerId === userId ? caller.scopes : (await requireTenantAccess(db, id, userId)).scopes;
      return c.json(
        scopes.map((name) => ({ name })),
        200,
      );
    });
}
