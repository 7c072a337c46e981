import { getTableColumns, is, Param, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';

/**
 * Many rows in one INSERT with one parameter per column instead of one per value:
 * `insert into t (a, b) select * from unnest($1::a_type[], $2::b_type[])`. Drizzle's multi-row `values` builds a
 * parameter object per value (500 users × 18 columns = 9,000) and re-walks them to render the statement: a tenth of
 * a bulk import's CPU. Each value is still converted by its column (`mapToDriverValue`: JSON text for jsonb, ISO text
 * for timestamps) exactly as drizzle would, and a value left out gets what drizzle's insert gives it: the column's
 * `$defaultFn`, else its `$onUpdateFn` when it has no default, else the database default (the column is left out of
 * the statement when no row gives it; NULL when some rows do and the column has no default).
 *
 * Answers undefined when the rows need something this shape cannot say (an SQL expression as a value, an array
 * column, a column with a database default that some rows give and others leave out, an identity column when the
 * caller wants rows back): the caller then inserts through drizzle's `values`.
 */
export function bulkInsert(
  db: Database,
  table: PgTable,
  rows: readonly Record<string, unknown>[],
  returning: boolean,
): Promise<Record<string, unknown>[] | undefined> | undefined {
  const columns: PgColumn[] = [];
  const arrays: SQL[] = [];
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    const identity = column.generatedIdentity !== undefined;
    if (column.generated !== undefined || column.columnType === 'PgArray') return undefined;
    const given = rows.filter((row) => row[key] !== undefined).length;
    // As drizzle's insert: `$defaultFn`, else `$onUpdateFn` when the column has no (truthy) default.
    const fill = column.defaultFn ?? (column.default ? undefined : column.onUpdateFn);
    if (given === 0 && !fill) {
      // Every row leaves it to the database: left out of the statement, as drizzle's `default` would leave it.
      if (returning && identity) return undefined;
      continue;
    }
    if (identity) return undefined;
    if (given < rows.length && !fill && column.hasDefault) return undefined;
    const values: unknown[] = new Array(rows.length);
    for (let index = 0; index < rows.length; index++) {
      let value = (rows[index] as Record<string, unknown>)[key];
      if (value === undefined) value = fill ? fill() : null;
      if (is(value, SQL) || is(value, Param) || is(value, SQL.Aliased)) return undefined;
      values[index] = value === null ? null : column.mapToDriverValue(value);
    }
    columns.push(column);
    arrays.push(sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`);
  }
  if (columns.length === 0) return undefined;
  const names = sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  const statement = sql`insert into ${table} (${names}) select * from unnest(${sql.join(arrays, sql`, `)})`;
  if (!returning) return db.execute(statement).then(() => []);
  // The rows back with every column, converted by their columns as drizzle's `returning()` converts them.
  const all = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const returned = sql.join(
    all.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  return db.execute(sql`${statement} returning ${returned}`).then((result) =>
    (result as unknown as { rows: Record<string, unknown>[] }).rows.map((raw) => {
      const row: Record<string, unknown> = {};
      for (const [key, column] of all) {
        const value = raw[column.name];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row;
    }),
  );
}
