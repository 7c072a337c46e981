import { SCIM_MAX_PAGE_SIZE } from '@gatehouse/schemas';
import type { ScimConnectionRow } from '../scim-connections.ts';
import type { JsonObject } from './resources.ts';
import { LIST_RESPONSE_SCHEMA } from './schema.ts';

/** The connection a SCIM request is for, and the base URL its resources' `meta.location` starts with. */
export type ScimScope = { connection: ScimConnectionRow; baseUrl: string };

/** The query of a SCIM list (RFC 7644 §3.4.2): all text, as sent. */
export type ScimListQuery = {
  filter?: string | undefined;
  startIndex?: string | undefined;
  count?: string | undefined;
  attributes?: string | undefined;
  excludedAttributes?: string | undefined;
};

/** A page of a SCIM list: 1-based `startIndex` (below 1 is 1), `count` 0–100 (above 100 is cut, RFC 7644 §3.4.2.4). */
export type ScimPage = { startIndex: number; count: number };

const integerOr = (value: string | undefined, fallback: number) => {
  const parsed = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) ? Math.trunc(parsed) : fallback;
};

export function scimPage(query: ScimListQuery): ScimPage {
  const startIndex = Math.max(1, integerOr(query.startIndex, 1));
  const count = Math.min(SCIM_MAX_PAGE_SIZE, Math.max(0, integerOr(query.count, SCIM_MAX_PAGE_SIZE)));
  return { startIndex, count };
}

export function listResponse(resources: JsonObject[], totalResults: number, page: ScimPage): JsonObject {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
