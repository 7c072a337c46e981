import {
  type ConnectorCreate,
  type ConnectorPatch,
  connectorFactorySchema,
  connectorSchema,
  type Language,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** The connectors area's calls (spec §2.2 connectors; server routes/connectors.ts). */

const seg = encodeURIComponent;

/** The refusal a config form places on its fields (data: `{path, message}` per field). */
export const connectorConfigErrorCode = 'connector.invalid_config_guard';

export function useConnectorFactories() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('connector-factories'),
    queryFn: ({ signal }) => requestJson(api.path('/connector-factories'), z.array(connectorFactorySchema), { signal }),
    // The factories are the server's code: they do not change while the console runs.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useConnectors() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('connectors', 'list'),
    queryFn: ({ signal }) => requestJson(api.path('/connectors'), z.array(connectorSchema), { signal }),
  });
}

export function useConnector(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('connectors', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/connectors/${seg(id)}`), connectorSchema, { signal }),
  });
}

/** Creating an email or SMS connector replaces the tenant's current one of that type (server). */
export function useCreateConnector() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (connector: ConnectorCreate) =>
      requestJson(api.path('/connectors'), connectorSchema, { method: 'POST', json: connector }),
    onSuccess: async (connector) => {
      client.setQueryData(api.key('connectors', 'detail', connector.id), connector);
      await client.invalidateQueries({ queryKey: api.key('connectors', 'list') });
    },
    meta: { silenceErrorCodes: [connectorConfigErrorCode] },
  });
}

export function useUpdateConnector(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: ConnectorPatch) =>
      requestJson(api.path(`/connectors/${seg(id)}`), connectorSchema, { method: 'PATCH', json: patch }),
    onSuccess: async (connector) => {
      client.setQueryData(api.key('connectors', 'detail', id), connector);
      await client.invalidateQueries({ queryKey: api.key('connectors', 'list') });
    },
    meta: { silenceErrorCodes: [connectorConfigErrorCode] },
  });
}

export function useDeleteConnector(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/connectors/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('connectors', 'detail', id) });
      await client.invalidateQueries({ queryKey: api.key('connectors', 'list') });
    },
  });
}

export type ConnectorTest = {
  email?: string;
  phone?: string;
  config: Record<string, unknown>;
  locale?: Language;
};

/** A test message with the config as typed (saved or not); the dialog shows every refusal itself. */
export function useTestConnector(factoryId: string) {
  const api = useManagementApi();
  return useMutation({
    mutationFn: async (test: ConnectorTest) => {
      await request(api.path(`/connectors/${seg(factoryId)}/test`), { method: 'POST', json: test });
    },
    meta: { silenceErrorCodes: true },
  });
}
