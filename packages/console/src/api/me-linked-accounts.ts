import {
  type MeEmailChange,
  type MeSocialAuthorizationRequest,
  type MeSocialLink,
  meSocialAuthorizationSchema,
  meSocialConnectorSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { accessTokenFor, meResource } from '../auth/session.ts';
import { request, requestJson } from './client.ts';
import { meGuard, meQueryKey, meRequest } from './me.ts';

// The cloud profile's linked accounts (issue 42): the email proven by a code sent to it, and social identities.

export const mySocialConnectorsKey = [...meQueryKey, 'social-connectors'] as const;

/**
 * How long the 'me' token must stay valid when the linking popup opens: the popup starts with a copy of this tab's
 * sessionStorage and uses that token to post the provider's answer; refreshing it there would rotate the refresh
 * token this tab still holds. The server's linking lasts as long (10 minutes).
 */
const linkingTokenValiditySeconds = 10 * 60;

/** The console's social connectors, each with the account's identity through it (spec §7 `GET me/social/connectors`). */
export function useMySocialConnectors() {
  return useQuery({
    queryKey: mySocialConnectorsKey,
    queryFn: ({ signal }) =>
      requestJson('/api/me/social/connectors', z.array(meSocialConnectorSchema), { ...meRequest(), signal }),
  });
}

/** Emails a code to the address the account wants as its email; the form shows the refusals on its field. */
export function useSendLinkEmailCode() {
  return useMutation({
    mutationFn: async (email: string) => {
      await request('/api/me/email/link/verification-code', { ...meRequest(), method: 'POST', json: { email } });
    },
    meta: { silenceErrorCodes: ['user.email_already_in_use', 'user.email_blocked', 'guard.invalid_input'] },
  });
}

/** Sets the account's email to the address the code went to; the answer is the account, its email proven. */
export function useChangeEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MeEmailChange) =>
      requestJson('/api/me/email', meGuard, { ...meRequest(), method: 'POST', json: body }),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
    // The dialog shows these itself: on the code field, or by asking for the password again.
    meta: {
      silenceErrorCodes: [
        'verification_code.code_mismatch',
        'verification_code.exceed_max_try',
        'verification_record.invalid',
      ],
    },
  });
}

/** Spec §7: where the linking popup goes. The 'me' token is renewed first if the popup could outlive it. */
export function useSocialAuthorizationUri() {
  return useMutation({
    mutationFn: async (body: MeSocialAuthorizationRequest) => {
      await accessTokenFor(await meResource(), linkingTokenValiditySeconds);
      return requestJson('/api/me/social/authorization-uri', meSocialAuthorizationSchema, {
        ...meRequest(),
        method: 'POST',
        json: body,
      });
    },
  });
}

/** Spec §7: the landing page posts the provider's answer; `user.identity_already_in_use` is an alert there. */
export function useLinkSocialIdentity() {
  return useMutation({
    mutationFn: (body: MeSocialLink) =>
      requestJson('/api/me/social/link-identity', meSocialConnectorSchema, {
        ...meRequest(),
        method: 'POST',
        json: body,
      }),
    meta: { silenceErrorCodes: ['user.identity_already_in_use'] },
  });
}

/** Spec §7 `DELETE me/social/identity/{connectorId}`, after a confirmation. */
export function useUnlinkSocialIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (connectorId: string) => {
      await request(`/api/me/social/identity/${encodeURIComponent(connectorId)}`, {
        ...meRequest(),
        method: 'DELETE',
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** After the popup linked an account: the list and the account are read again. */
export function useSocialLinked() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: meQueryKey });
}
