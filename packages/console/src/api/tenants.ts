import {
  CLOUD_API_RESOURCE,
  type InviteeInvitation,
  inviteeInvitationSchema,
  memberScopeSchema,
  type Tenant,
  type TenantCreate,
  type TenantInvitationCreate,
  type TenantMemberRoleUpdate,
  type TenantUpdate,
  tenantEndpointsSchema,
  tenantInvitationDeliverySchema,
  tenantInvitationSchema,
  tenantMemberSchema,
  tenantSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { meQueryKey } from './me.ts';

/**
 * The cloud API (spec §7 cloud rows): tenants, their members and invitations, and the invitee's invitations. Every
 * call carries a token for the cloud API (CLOUD_API_RESOURCE), never a tenant's organization token.
 */
const seg = encodeURIComponent;
const cloud = { resource: CLOUD_API_RESOURCE } as const;

/**
 * Query keys. They start with 'cloud', not 'tenant': a tenant change refreshes the data under ['tenant', id] only
 * (spec §4), and the tenant list and the invitee's invitations are the account's, not a tenant's.
 */
export const cloudKeys = {
  tenants: ['cloud', 'tenants'] as const,
  members: (tenantId: string) => ['cloud', 'tenants', tenantId, 'members'] as const,
  memberScopes: (tenantId: string, userId: string) =>
    ['cloud', 'tenants', tenantId, 'members', userId, 'scopes'] as const,
  tenantInvitations: (tenantId: string) => ['cloud', 'tenants', tenantId, 'invitations'] as const,
  invitationDelivery: (tenantId: string) => ['cloud', 'tenants', tenantId, 'invitation-delivery'] as const,
  myInvitations: ['cloud', 'invitations'] as const,
  invitation: (id: string) => ['cloud', 'invitations', id] as const,
  endpoints: (tenantId: string) => ['cloud', 'endpoints', tenantId] as const,
};

// ---- plain calls (also used outside React: the tenant context, the acceptance page) ----

export function fetchTenants(signal?: AbortSignal): Promise<Tenant[]> {
  return requestJson('/api/tenants', z.array(tenantSchema), { ...cloud, signal });
}

export function createTenant(body: TenantCreate): Promise<Tenant> {
  return requestJson('/api/tenants', tenantSchema, { ...cloud, method: 'POST', json: body });
}

export function fetchMemberScopes(tenantId: string, userId: string, signal?: AbortSignal): Promise<string[]> {
  return requestJson(`/api/tenants/${seg(tenantId)}/members/${seg(userId)}/scopes`, z.array(memberScopeSchema), {
    ...cloud,
    signal,
  }).then((scopes) => scopes.map((scope) => scope.name));
}

export function inviteToTenant(tenantId: string, body: TenantInvitationCreate) {
  return requestJson(`/api/tenants/${seg(tenantId)}/invitations`, z.array(tenantInvitationSchema), {
    ...cloud,
    method: 'POST',
    json: body,
  });
}

export function fetchInvitation(id: string, signal?: AbortSignal): Promise<InviteeInvitation> {
  return requestJson(`/api/invitations/${seg(id)}`, inviteeInvitationSchema, { ...cloud, signal });
}

export async function acceptInvitation(id: string): Promise<void> {
  await request(`/api/invitations/${seg(id)}/status`, {
    ...cloud,
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'Accepted' }),
  });
}

// ---- hooks ----

/** The signed-in user's tenants (the tenant context keeps its own copy; this is for pages that only read). */
export function useTenantList() {
  return useQuery({ queryKey: cloudKeys.tenants, queryFn: ({ signal }) => fetchTenants(signal) });
}

export function useCreateTenant() {
  return useMutation({ mutationFn: createTenant });
}

/** PATCH /api/tenants/{id} (rename). The caller updates the tenant context with the answer. */
export function useUpdateTenant(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TenantUpdate) =>
      requestJson(`/api/tenants/${seg(tenantId)}`, tenantSchema, { ...cloud, method: 'PATCH', json: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: cloudKeys.tenants }),
  });
}

/**
 * DELETE /api/tenants/{id}. The caller drops the tenant from the tenant context and leaves it. Nothing is invalidated
 * here: `cloudKeys.tenants` is the prefix of the tenant's own keys (members, scopes), which would be read again while
 * its pages are still mounted and answer 404 (issue 26); the account is read again for the default tenant the server
 * moved.
 */
export function useDeleteTenant(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await request(`/api/tenants/${seg(tenantId)}`, { ...cloud, method: 'DELETE' });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: meQueryKey }),
  });
}

export function useTenantMembers(tenantId: string | undefined) {
  return useQuery({
    queryKey: cloudKeys.members(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/members`, z.array(tenantMemberSchema), { ...cloud, signal }),
    enabled: tenantId !== undefined,
  });
}

export function useMemberScopes(tenantId: string | undefined, userId: string | undefined) {
  return useQuery({
    queryKey: cloudKeys.memberScopes(tenantId ?? '', userId ?? ''),
    queryFn: ({ signal }) => fetchMemberScopes(tenantId ?? '', userId ?? '', signal),
    enabled: tenantId !== undefined && userId !== undefined,
  });
}

export function useUpdateMemberRole(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, ...body }: TenantMemberRoleUpdate & { userId: string }) => {
      await request(`/api/tenants/${seg(tenantId)}/members/${seg(userId)}/roles`, {
        ...cloud,
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: cloudKeys.members(tenantId) }),
  });
}

/** Removes a member; with the caller's own id this is 'leave tenant' (spec §7). */
export function useRemoveMember(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => {
      await request(`/api/tenants/${seg(tenantId)}/members/${seg(userId)}`, { ...cloud, method: 'DELETE' });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: cloudKeys.members(tenantId) }),
  });
}

/** Leaving is removing yourself; a separate name so the settings page reads as what it does. */
export const useLeaveTenant = useRemoveMember;

export function useTenantInvitations(tenantId: string | undefined) {
  return useQuery({
    queryKey: cloudKeys.tenantInvitations(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/invitations`, z.array(tenantInvitationSchema), {
        ...cloud,
        signal,
      }),
    enabled: tenantId !== undefined,
  });
}

/**
 * Whether the tenant's invitations are emailed (GET …/invitation-delivery, issue 40 item 11): without an email sender
 * the server creates them and sends nothing, so the invite dialog says so before, and offers the links after. A
 * failure is not toasted: the dialog then offers the links, which work either way.
 */
export function useInvitationDelivery(tenantId: string | undefined) {
  return useQuery({
    queryKey: cloudKeys.invitationDelivery(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/invitation-delivery`, tenantInvitationDeliverySchema, {
        ...cloud,
        signal,
      }),
    enabled: tenantId !== undefined,
    meta: { silenceErrorCodes: true },
  });
}

/**
 * POST …/invitations. The invite modal toasts its own spec §8 'invitation failed' message, so the generic error toast
 * is silenced; a quota refusal still raises the quota modal, and a success refreshes usage (the query client's cache).
 * The invitation list is re-read either way: some invitees may have been invited before a failure.
 */
export function useInviteMembers(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TenantInvitationCreate) => inviteToTenant(tenantId, body),
    onSettled: () => client.invalidateQueries({ queryKey: cloudKeys.tenantInvitations(tenantId) }),
    meta: { silenceErrorCodes: true },
  });
}

export function useRevokeInvitation(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (invitationId: string) => {
      await request(`/api/tenants/${seg(tenantId)}/invitations/${seg(invitationId)}`, { ...cloud, method: 'DELETE' });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: cloudKeys.tenantInvitations(tenantId) }),
  });
}

/** Sends the invitation email again (POST …/invitations/{id}/message). */
export function useResendInvitation(tenantId: string) {
  return useMutation({
    mutationFn: async (invitationId: string) => {
      await request(`/api/tenants/${seg(tenantId)}/invitations/${seg(invitationId)}/message`, {
        ...cloud,
        method: 'POST',
      });
    },
  });
}

/** The signed-in user's own invitations (GET /api/invitations); only Pending ones are actionable. */
export function useMyInvitations(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: cloudKeys.myInvitations,
    queryFn: ({ signal }) => requestJson('/api/invitations', z.array(inviteeInvitationSchema), { ...cloud, signal }),
    select: (invitations) => invitations.filter((invitation) => invitation.status === 'Pending'),
    enabled: options.enabled ?? true,
  });
}

export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => client.invalidateQueries({ queryKey: cloudKeys.myInvitations }),
  });
}

/** A tenant's endpoint URL (GET /api/.well-known/endpoints/{tenantId}). */
export function useTenantEndpoints(tenantId: string | undefined) {
  return useQuery({
    queryKey: cloudKeys.endpoints(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/.well-known/endpoints/${seg(tenantId ?? '')}`, tenantEndpointsSchema, { ...cloud, signal }),
    enabled: tenantId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
