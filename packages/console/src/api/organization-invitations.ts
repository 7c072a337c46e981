import { type OrganizationInvitation, organizationInvitationSchema, userSchema } from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestJson, requestPage } from './client.ts';
import { listQuery, useManagementApi } from './management.ts';

const seg = encodeURIComponent;

/** The invitations of one organization, newest first (GET /organization-invitations?organizationId=…). */
export function useOrganizationInvitations(organizationId: string, query: { page: number; pageSize: number }) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', organizationId, 'invitations', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/organization-invitations${listQuery({ organizationId, page: query.page, page_size: query.pageSize })}`,
        ),
        organizationInvitationSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Names of the inviters on a page (an admin's invitation has none): one GET per distinct user, cached. */
export function useInviterNames(invitations: readonly OrganizationInvitation[] | undefined) {
  const api = useManagementApi();
  const ids = [...new Set((invitations ?? []).flatMap((invitation) => invitation.inviterId ?? []))];
  const users = useQueries({
    queries: ids.map((id) => ({
      queryKey: api.key('users', 'detail', id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        requestJson(api.path(`/users/${seg(id)}`), userSchema, { signal }),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const names = new Map<string, string>();
  users.forEach((user, index) => {
    const id = ids[index];
    if (id && user.data) names.set(id, user.data.name || user.data.username || user.data.primaryEmail || id);
  });
  return names;
}

export type InviteRequest = {
  invitee: string;
  organizationRoleIds: string[];
  expiresAt: number;
  /** The acceptance link and language of the email; absent: no email (the API's reference semantics). */
  messagePayload?: Record<string, string>;
};

/** Invites one address (POST /organization-invitations). */
export function useInvite(organizationId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteRequest) =>
      requestJson(api.path('/organization-invitations'), organizationInvitationSchema, {
        method: 'POST',
        json: { organizationId, ...body },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: api.key('organizations', organizationId, 'invitations') }),
  });
}

/** Revokes a pending invitation (PUT …/status). */
export function useRevokeInvitation(organizationId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      requestJson(api.path(`/organization-invitations/${seg(id)}/status`), organizationInvitationSchema, {
        method: 'PUT',
        json: { status: 'Revoked' },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: api.key('organizations', organizationId, 'invitations') }),
  });
}

/** Sends the invitation email again (POST …/message), with the link and language to use. */
export function useResendInvitation(organizationId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, messagePayload }: { id: string; messagePayload: Record<string, string> }) =>
      request(api.path(`/organization-invitations/${seg(id)}/message`), {
        method: 'POST',
        json: messagePayload,
      }),
    // A 422 means it stopped being pending meanwhile: the list shows its status now.
    onSettled: () => client.invalidateQueries({ queryKey: api.key('organizations', organizationId, 'invitations') }),
  });
}

/** The acceptance link last used in this browser for the tenant, offered again in the next invitation. */
const linkKey = (tenant: string) => `gatehouse.invitationLink.${tenant}`;
export function rememberedLink(tenant: string): string {
  try {
    return localStorage.getItem(linkKey(tenant)) ?? '';
  } catch {
    return '';
  }
}
export function rememberLink(tenant: string, link: string): void {
  try {
    if (link) localStorage.setItem(linkKey(tenant), link);
  } catch {
    // Storage may be unavailable (private mode); the field is simply empty next time.
  }
}
