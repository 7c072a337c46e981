import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { schema } from './tables.ts';

export type Schema = typeof schema;
/** Either driver's database; both speak the same PostgreSQL dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
