import { type Connector, connectorSchema } from '@gatehouse/schemas';
import { z } from 'zod';
import { requestJson } from '../../api/client.ts';
import { managementPath } from '../../api/management-path.ts';
import type { PaletteEntity } from '../../components/routing/area.ts';
import { nameIn } from './ConnectorFacts.tsx';
import { listTabOf, toConnector } from './links.ts';

/**
 * Case- and accent-insensitive, as the palette matches its pages (pages do not import the app shell's code, so the
 * rule is restated here).
 */
const normalize = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/** As many as the other areas' palette searches show. */
const MAX_FOUND = 5;

export type FoundConnector = Omit<PaletteEntity, 'kind'>;

/**
 * The connectors a palette query finds, in the list's order: every word of the query is in the connector's display
 * name, its factory's name, its target or its factory id, so 'smtp' finds the SMTP connector and 'google' the Google
 * one whatever they are called. The label is the name the list shows (display name, else the factory's).
 */
export function matchConnectors(connectors: readonly Connector[], query: string, language: string): FoundConnector[] {
  const wanted = normalize(query.trim());
  if (!wanted) return [];
  const words = wanted.split(/\s+/);
  return connectors
    .flatMap((connector) => {
      const label = nameIn(connector.metadata.name, language) || nameIn(connector.name, language) || connector.id;
      const texts = [label, ...Object.values(connector.name), connector.target, connector.connectorId].map(normalize);
      if (!words.every((word) => texts.some((text) => text.includes(word)))) return [];
      return [{ id: connector.id, label, to: toConnector(listTabOf(connector.type), connector.id) }];
    })
    .slice(0, MAX_FOUND);
}

/** The tenant's connectors (GET /connectors, the list useConnectors reads) matched against the query here. */
export async function searchConnectors(
  tenantId: string | undefined,
  query: string,
  signal: AbortSignal,
  language: string,
): Promise<FoundConnector[]> {
  const connectors = await requestJson(managementPath(tenantId, '/connectors'), z.array(connectorSchema), { signal });
  return matchConnectors(connectors, query, language);
}
