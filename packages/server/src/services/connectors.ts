import {
  type Connector,
  type ConnectorCreate,
  type ConnectorPatch,
  connectorConfigSchema,
  connectorSecretBinding,
  DomainError,
  generateId,
  invalidFields,
  type Language,
  MASKED_SECRET,
  notFound,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { connectors } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { connectorFactories, connectorModule } from './connectors/registry.ts';
import { ConnectorError } from './connectors/types.ts';
import { renderVerificationCode } from './email-templates.ts';
import { secretsSentElsewhere } from './masked-secrets.ts';
import type { MessageDelivery } from './message-delivery.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * A tenant's connectors (issue 21, reference `/connectors`): created from a factory with a config its form items
 * describe, one email and one SMS connector at a time (a new one replaces the old, in one transaction), secrets
 * masked in every answer and in the audit log.
 */

type ConnectorRow = typeof connectors.$inferSelect;

function moduleOf(factoryId: string) {
  const module = connectorModule(factoryId);
  if (!module) throw new DomainError('not_found', 'connector.not_found');
  return module;
}

/** Confidential values stand as {@link MASKED_SECRET}; an empty one stays empty (not set). */
function masked(factoryId: string, config: Record<string, unknown>): Record<string, unknown> {
  const { factory } = moduleOf(factoryId);
  const secret = new Set(factory.formItems.filter((item) => item.isConfidential).map((item) => item.key));
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [key, secret.has(key) && value ? MASKED_SECRET : value]),
  );
}

export function toConnector(row: ConnectorRow): Connector {
  const { factory } = moduleOf(row.connectorId);
  return {
    id: row.id,
    connectorId: row.connectorId,
    config: masked(row.connectorId, row.config),
    metadata: row.metadata,
    syncProfile: row.syncProfile,
    enableTokenStorage: row.enableTokenStorage,
    createdAt: row.createdAt.getTime(),
    type: factory.type,
    platform: factory.platform,
    target: (row.metadata.target as string | undefined) ?? factory.target,
    name: factory.name,
    logo: (row.metadata.logo as string | undefined) ?? factory.logo,
    logoDark: factory.logoDark,
    formItems: factory.formItems,
  };
}

/**
 * A config checked against its factory's form items; masked values sent back keep what is stored (`stored`), so the
 * console can save a form without ever having seen the secret — unless the config now sends elsewhere, when each
 * kept secret must be entered again (services/masked-secrets.ts).
 */
function checkedConfig(factoryId: string, config: Record<string, unknown>, stored: Record<string, unknown> = {}) {
  const { factory } = moduleOf(factoryId);
  const resolved = Object.fromEntries(
    Object.entries(config)
      .filter(([, value]) => value !== '' && value !== null)
      .map(([key, value]) => [key, value === MASKED_SECRET ? stored[key] : value]),
  );
  const parsed = connectorConfigSchema(factory.formItems).safeParse(resolved);
  if (!parsed.success) throw new DomainError('invalid', 'connector.invalid_config_guard', invalidFields(parsed.error));
  const next = parsed.data as Record<string, unknown>;
  const refused = secretsSentElsewhere(connectorSecretBinding(factory.formItems), stored, next, config);
  if (refused.length > 0) throw new DomainError('invalid', 'connector.invalid_config_guard', refused);
  return next;
}

export function listConnectorFactories() {
  return connectorFactories;
}

export function getConnectorFactory(id: string) {
  return moduleOf(id).factory;
}

export async function listConnectors(tenant: TenantDb, target?: string): Promise<Connector[]> {
  const rows = await tenant.findMany(connectors, {});
  return rows
    .filter((row) => connectorModule(row.connectorId))
    .map(toConnector)
    .filter((connector) => !target || connector.target === target)
    .sort((a, b) => a.createdAt - b.createdAt);
}

async function findConnector(tenant: TenantDb, id: string): Promise<ConnectorRow> {
  const row = await tenant.findOne(connectors, eq(connectors.id, id));
  if (!row) throw notFound();
  return row;
}

export async function getConnector(tenant: TenantDb, id: string): Promise<Connector> {
  return toConnector(await findConnector(tenant, id));
}

export function createConnector(ctx: WriteContext, deps: QuotaDeps, input: ConnectorCreate): Promise<Connector> {
  // An unknown factory in the body is 422, as the reference answers (a path naming one stays 404).
  if (!connectorModule(input.connectorId))
    throw new DomainError('unprocessable', 'connector.not_found_with_connector_id');
  const { factory } = moduleOf(input.connectorId);
  const config = checkedConfig(input.connectorId, input.config);
  return performWrite(ctx, 'Admin.Connector.Created', async (tx) => {
    // Spec §9: the plan limits social connectors (cloud).
    if (factory.type === 'Social') await assertQuota(tx, 'socialConnectorsLimit', deps);
    // One email and one SMS connector: the new one replaces the tenant's current one (reference behaviour).
    const replaced = factory.type === 'Social' ? [] : await tx.delete(connectors, eq(connectors.type, factory.type));
    const row = await tx.insert(connectors, {
      id: input.id ?? generateId(12),
      connectorId: input.connectorId,
      type: factory.type,
      config,
      metadata: input.metadata ?? {},
      syncProfile: input.syncProfile ?? false,
      enableTokenStorage: input.enableTokenStorage ?? false,
    });
    const connector = toConnector(row);
    return {
      result: connector,
      entity: { type: 'Connector', id: row.id },
      before: replaced[0] ? { replaced: toConnector(replaced[0]) } : null,
      after: connector,
    };
  });
}

export function updateConnector(ctx: WriteContext, id: string, patch: ConnectorPatch): Promise<Connector> {
  return performWrite(ctx, 'Admin.Connector.Updated', async (tx) => {
    const existing = await findConnector(tx, id);
    const config = patch.config ? checkedConfig(existing.connectorId, patch.config, existing.config) : undefined;
    const [row = existing] = await tx.update(connectors, eq(connectors.id, id), {
      config,
      metadata: patch.metadata,
      syncProfile: patch.syncProfile,
      enableTokenStorage: patch.enableTokenStorage,
      updatedAt: new Date(),
    });
    const after = toConnector(row);
    return { result: after, entity: { type: 'Connector', id }, before: toConnector(existing), after };
  });
}

export function deleteConnector(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Connector.Deleted', async (tx) => {
    const [row] = await tx.delete(connectors, eq(connectors.id, id));
    if (!row) throw notFound();
    return { result: undefined, entity: { type: 'Connector', id }, before: toConnector(row), after: null };
  });
}

/**
 * The console's test send (reference `POST /connectors/{factoryId}/test`): a sample verification code through the
 * factory with the config as typed; masked secrets are taken from the tenant's connector of that factory.
 */
export async function testConnector(
  tenant: TenantDb,
  delivery: MessageDelivery,
  factoryId: string,
  input: { email?: string | undefined; phone?: string | undefined; config: Record<string, unknown>; locale?: Language },
): Promise<void> {
  const { factory } = moduleOf(factoryId);
  if (factory.type === 'Social')
    throw new ConnectorError('connector.unexpected_type', 'social connectors send nothing');
  const to = factory.type === 'Email' ? input.email : input.phone;
  if (!to)
    throw new ConnectorError(
      'connector.insufficient_request_parameters',
      `${factory.type === 'Email' ? 'email' : 'phone'} is required`,
    );
  const [saved] = await tenant.findMany(connectors, { where: eq(connectors.connectorId, factoryId), limit: 1 });
  const config = checkedConfig(factoryId, input.config, saved?.config);
  const language = input.locale ?? 'en';
  const code = '123456';
  const builtIn = renderVerificationCode(language, { code, minutes: 10, purpose: 'SignIn' });
  await delivery.sendWith(factoryId, config, {
    to,
    usage: 'Generic',
    language,
    values: { code, minutes: '10' },
    builtIn,
  });
}
