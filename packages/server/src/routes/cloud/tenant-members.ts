import { memberScopeSchema, tenantMemberRoleUpdateSchema, tenantMemberSchema } from '@gatehouse/schemas';
import { z } from 'zod';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { writeContext } from '../../http/write-context.ts';
import { listTenantMembers, removeTenantMember, updateTenantMemberRole } from '../../services/tenant-members.ts';
import { adminTenant, requireTenantAccess } from '../../services/tenants.ts';
import { type CloudDeps, idParams, tags } from './shared.ts';
import { tenantAccess, tenantRoute } from './tenant-access.ts';

/** A tenant's members (spec §6, §7): list, change a role, remove (or leave), read a member's tenant permissions. */

const memberParams = idParams.extend({ userId: z.string().min(1).max(64) });
const lastAdmin = {
  422: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'The last admin (`tenant.last_admin`).'),
};

const listMembers = tenantRoute({
  access: 'read:member',
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

const updateRole = tenantRoute({
  access: 'update:member:role',
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

const removeMember = tenantRoute({
  access: { permission: 'remove:member', unlessSelf: 'userId' },
  method: 'delete',
  path: '/tenants/{id}/members/{userId}',
  tags,
  summary: 'Remove a member (tenant permission `remove:member`), or leave the tenant (yourself)',
  request: { params: memberParams },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse, ...lastAdmin },
});

const memberScopes = tenantRoute({
  access: { permission: 'read:member', unlessSelf: 'userId' },
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
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listMembers, async (c) => c.json(await listTenantMembers(adminTenant(db), c.req.valid('param').id), 200))
    .openapi(updateRole, async (c) => {
      const { id, userId } = c.req.valid('param');
      return c.json(await updateTenantMemberRole(writeContext(c), id, userId, c.req.valid('json')), 200);
    })
    .openapi(removeMember, async (c) => {
      const { id, userId } = c.req.valid('param');
      await removeTenantMember(writeContext(c), id, userId);
      return c.body(null, 204);
    })
    .openapi(memberScopes, async (c) => {
      const { id, userId } = c.req.valid('param');
      const caller = tenantAccess(c);
      // Another member's permissions: theirs, read the same way (404 when they are not a member).
      const scopes =
        c.get('auth').actor.id === userId ? caller.scopes : (await requireTenantAccess(db, id, userId)).scopes;
      return c.json(
        scopes.map((name) => ({ name })),
        200,
      );
    });
}
