import {
  type MeMfaVerificationCreate,
  meMfaVerificationCreatedSchema,
  meTotpSecretSchema,
  meWebAuthnRegistrationSchema,
  passwordVerificationSchema,
  userAssetSchema,
  userAssetsStatusSchema,
  userMfaVerificationSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { meQueryKey, meRequest } from './me.ts';

// The profile page's calls of the 'me' API: apart from me.ts, whose calls every page's shell makes, so these (and
// the zod schemas they check answers with) load with the profile page only.

export function useVerifyPassword() {
  return useMutation({
    mutationFn: (password: string) =>
      requestJson('/api/me/password/verify', passwordVerificationSchema, {
        ...meRequest(),
        method: 'POST',
        json: { password },
      }),
    meta: { silenceErrorCodes: ['session.invalid_credentials'] },
  });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { password: string; verificationRecordId?: string | undefined }) => {
      await request('/api/me/password', {
        ...meRequest(),
        method: 'POST',
        json: body,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: meQueryKey }),
    meta: { silenceErrorCodes: ['password.rejected', 'verification_record.invalid'] },
  });
}

export function useUserAssetsStatus() {
  return useQuery({
    queryKey: [...meQueryKey, 'user-assets-status'],
    queryFn: ({ signal }) =>
      requestJson('/api/me/user-assets/service-status', userAssetsStatusSchema, { ...meRequest(), signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Uploads one image for the profile (multipart field `file`, spec §7); the ImageUploader calls it. */
export async function uploadUserAsset(file: File, signal: AbortSignal): Promise<{ url: string }> {
  const body = new FormData();
  body.append('file', file);
  return requestJson('/api/me/user-assets', userAssetSchema, { ...meRequest(), method: 'POST', body, signal });
}

/** The account's own MFA factors (passkeys, an authenticator app, backup codes): never their secrets. */
export const myMfaVerificationsKey = [...meQueryKey, 'mfa-verifications'] as const;

const mfaVerificationsPath = '/api/me/mfa-verifications';

export function useMyMfaVerifications() {
  return useQuery({
    queryKey: myMfaVerificationsKey,
    queryFn: ({ signal }) =>
      requestJson(mfaVerificationsPath, z.array(userMfaVerificationSchema), { ...meRequest(), signal }),
  });
}

/**
 * Proof of the current password for a change of the account's factors: required while the account has a password,
 * left out when it has none.
 */
export type VerificationProof = { verificationRecordId?: string | undefined };

/** Starts a passkey's registration: the options for the browser and a ticket that carries the challenge back. */
export function useStartPasskeyRegistration() {
  return useMutation({
    mutationFn: (proof: VerificationProof) =>
      requestJson(`${mfaVerificationsPath}/webauthn-registration`, meWebAuthnRegistrationSchema, {
        ...meRequest(),
        method: 'POST',
        json: proof,
      }),
  });
}

/** Starts an authenticator app's setup: a new key and its QR code, with a ticket that carries it back. */
export function useCreateTotpSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (proof: VerificationProof) =>
      requestJson(`${mfaVerificationsPath}/totp-secret`, meTotpSecretSchema, {
        ...meRequest(),
        method: 'POST',
        json: proof,
      }),
    // `user.totp_already_in_use`: another tab set one up meanwhile; the list shows it once read again.
    onError: () => client.invalidateQueries({ queryKey: myMfaVerificationsKey }),
  });
}

/**
 * Adds the passkey the browser made, or the authenticator app a code proves. The answer holds backup codes, shown
 * once, when the server made them with this factor.
 */
export function useAddMfaVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MeMfaVerificationCreate) =>
      requestJson(mfaVerificationsPath, meMfaVerificationCreatedSchema, {
        ...meRequest(),
        method: 'POST',
        json: body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: myMfaVerificationsKey }),
    // The dialogs show these in their field.
    meta: {
      silenceErrorCodes: [
        'mfa.invalid_code',
        'user.webauthn_verification_failed',
        'user.passkey_already_registered',
        'verification_record.invalid',
      ],
    },
  });
}

/** Removes one factor; the proof of the password goes in a header, as a DELETE has no body. */
export function useRemoveMfaVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, verificationRecordId }: { id: string } & VerificationProof) => {
      await request(`${mfaVerificationsPath}/${encodeURIComponent(id)}`, {
        ...meRequest(),
        method: 'DELETE',
        ...(verificationRecordId !== undefined && { headers: { 'x-verification-record-id': verificationRecordId } }),
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: myMfaVerificationsKey }),
  });
}
