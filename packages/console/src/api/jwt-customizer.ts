import {
  type IdTokenConfig,
  idTokenConfigSchema,
  type JwtCustomizer,
  type JwtCustomizerPatch,
  type JwtCustomizerTest,
  type JwtCustomizerTokenType,
  jwtCustomizerListSchema,
  jwtCustomizerResponseSchema,
  jwtCustomizerTestResultSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, request, requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** The customize-jwt area's calls (spec §2.2 customize-jwt; server routes `/configs/jwt-customizer`, `/configs/id-token`). */

/** The refusals of a script that failed in the sandbox (spec §8 custom JWT errors: AccessDenied and General). */
export const jwtCustomizerScriptErrorCodes = ['jwt_customizer.general', 'jwt_customizer.access_denied'] as const;

const scriptErrorData = z.object({ name: z.string(), message: z.string() });
export type JwtScriptError = z.infer<typeof scriptErrorData>;

/** The script's own error (its name and message) when a Test failed in the sandbox; undefined for any other error. */
export function scriptErrorOf(error: unknown): JwtScriptError | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  if (!jwtCustomizerScriptErrorCodes.some((code) => code === error.code)) return undefined;
  const data = scriptErrorData.safeParse(error.data);
  return data.success ? data.data : { name: error.code ?? 'Error', message: error.message };
}

const path = (tokenType: JwtCustomizerTokenType) => `/configs/jwt-customizer/${tokenType}`;

/** The saved scripts (only those that exist), keyed `jwt.accessToken` / `jwt.clientCredentials`. */
export function useJwtCustomizers() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('jwt-customizer', 'list'),
    queryFn: ({ signal }) => requestJson(api.path('/configs/jwt-customizer'), jwtCustomizerListSchema, { signal }),
  });
}

export function useJwtCustomizer(tokenType: JwtCustomizerTokenType, { enabled = true } = {}) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('jwt-customizer', tokenType),
    queryFn: ({ signal }) => requestJson(api.path(path(tokenType)), jwtCustomizerResponseSchema, { signal }),
    enabled,
    // The page shows 'not found' itself.
    meta: { silenceErrorCodes: ['entity.not_exists_with_id'] },
  });
}

/** PUT (create or replace) and PATCH answer the stored script, variables masked. */
function useJwtCustomizerWrite<Input>(tokenType: JwtCustomizerTokenType, method: 'PUT' | 'PATCH') {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) =>
      requestJson(api.path(path(tokenType)), jwtCustomizerResponseSchema, { method, json: input }),
    onSuccess: async (saved) => {
      client.setQueryData(api.key('jwt-customizer', tokenType), saved);
      await client.invalidateQueries({ queryKey: api.key('jwt-customizer', 'list'), exact: true });
    },
    // The form places a refused field on the field itself.
    meta: { silenceErrorCodes: ['guard.invalid_input'] },
  });
}

export const useSaveJwtCustomizer = (tokenType: JwtCustomizerTokenType) =>
  useJwtCustomizerWrite<JwtCustomizer>(tokenType, 'PUT');

export const useUpdateJwtCustomizer = (tokenType: JwtCustomizerTokenType) =>
  useJwtCustomizerWrite<JwtCustomizerPatch>(tokenType, 'PATCH');

export function useDeleteJwtCustomizer(tokenType: JwtCustomizerTokenType) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(path(tokenType)), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('jwt-customizer', tokenType) });
      await client.invalidateQueries({ queryKey: api.key('jwt-customizer', 'list'), exact: true });
    },
  });
}

/** Runs a script (saved or not) against a sample; a script failure is shown by the editor, not toasted. */
export function useTestJwtCustomizer() {
  const api = useManagementApi();
  return useMutation({
    mutationFn: (test: JwtCustomizerTest) =>
      requestJson(api.path('/configs/jwt-customizer/test'), jwtCustomizerTestResultSchema, {
        method: 'POST',
        json: test,
      }),
    meta: { silenceErrorCodes: jwtCustomizerScriptErrorCodes },
  });
}

/** Which extended user claims go into ID tokens. */
export function useIdTokenConfig() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('id-token-config'),
    queryFn: ({ signal }) => requestJson(api.path('/configs/id-token'), idTokenConfigSchema, { signal }),
  });
}

export function useUpdateIdTokenConfig() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (config: IdTokenConfig) =>
      requestJson(api.path('/configs/id-token'), idTokenConfigSchema, { method: 'PUT', json: config }),
    onSuccess: (saved) => client.setQueryData(api.key('id-token-config'), saved),
    meta: { silenceErrorCodes: ['guard.invalid_input'] },
  });
}
