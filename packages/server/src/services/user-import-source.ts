import { type UserImportField, type UserImportFormat, userImportFields } from '@gatehouse/schemas';
import { parse } from 'csv-parse/sync';

/**
 * Reading an import file: CSV (a header line, then one user a record) or JSON (an array of objects), into
 * records with their line number and the values of the user fields the mapping names. Malformed records are
 * reported with their line and left out; the rest is read.
 */

export type ImportField = UserImportField;
export type ImportFormat = UserImportFormat;
/** File column (CSV header or JSON key) → user field. */
export type ImportMapping = Record<string, ImportField>;

/**
 * One problem of one record. `line` is the record's first line in a CSV file (the header is line 1) and its
 * position in a JSON array (the first object is 1).
 */
export type ImportRowError = { line: number; field: string; code: string; message: string };
export type ImportRecord = { line: number; values: Partial<Record<ImportField, unknown>> };
export type ParsedSource = { records: ImportRecord[]; errors: ImportRowError[] };

export class ImportFileError extends Error {}

const isField = (value: string): value is ImportField => (userImportFields as readonly string[]).includes(value);

/** The mapping to apply: the given one, else every column named like a user field maps to it. */
function effectiveMapping(columns: readonly string[], mapping: ImportMapping): ImportMapping {
  if (Object.keys(mapping).length > 0) return mapping;
  return Object.fromEntries(columns.filter(isField).map((column) => [column, column])) as ImportMapping;
}

/** A cell as our CSV export escapes a formula: ' then = + - @ tab or CR. */
const FORMULA_ESCAPED = /^'[=+\-@\t\r]/;

function mapValues(row: Record<string, unknown>, mapping: ImportMapping, fromCsv: boolean) {
  const values: Partial<Record<ImportField, unknown>> = {};
  for (const [column, field] of Object.entries(mapping)) {
    let value = row[column];
    // An empty CSV cell means "not given", as an absent JSON key does.
    if (value === undefined || value === null || (fromCsv && value === '')) continue;
    // Our export writes a formula-like cell with a leading ' (CSV injection); an export imports again unchanged.
    if (fromCsv && typeof value === 'string' && FORMULA_ESCAPED.test(value)) value = value.slice(1);
    if (fromCsv && field === 'customData' && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        // Left as text: the schema rejects it with the custom-data message.
      }
    }
    values[field] = value;
  }
  return values;
}

function parseCsv(source: string, mapping: ImportMapping): ParsedSource {
  const errors: ImportRowError[] = [];
  const parsed = parse(source, {
    info: true,
    bom: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error)
        errors.push({ line: Number(error.lines), field: '', code: 'import.malformed_row', message: error.message });
      return undefined;
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const [header, ...rows] = parsed;
  if (!header) throw new ImportFileError('The CSV file has no header line.');
  const columns = header.record.map((column) => column.trim());
  const used = effectiveMapping(columns, mapping);
  const records = rows.map(({ record, info }) => {
    // info.lines is the record's last line; a quoted value may span lines.
    const spannedLines = record.reduce((sum, value) => sum + (value.match(/\n/g)?.length ?? 0), 0);
    const row = Object.fromEntries(columns.map((column, index) => [column, record[index]]));
    return { line: info.lines - spannedLines, values: mapValues(row, used, true) };
  });
  return { records, errors };
}

function parseJson(source: string, mapping: ImportMapping): ParsedSource {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new ImportFileError(`The file is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw new ImportFileError('A JSON import is an array of user objects.');
  const columns = [...new Set(parsed.flatMap((item) => (item && typeof item === 'object' ? Object.keys(item) : [])))];
  const used = effectiveMapping(columns, mapping);
  const errors: ImportRowError[] = [];
  const records: ImportRecord[] = [];
  parsed.forEach((item: unknown, index) => {
    const line = index + 1;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      errors.push({ line, field: '', code: 'import.malformed_row', message: 'Each item must be a JSON object.' });
    } else {
      records.push({ line, values: mapValues(item as Record<string, unknown>, used, false) });
    }
  });
  return { records, errors };
}

/** The records of an import file and its malformed ones; throws ImportFileError when the file as a whole is unreadable. */
export function parseImportSource(format: ImportFormat, source: string, mapping: ImportMapping): ParsedSource {
  return format === 'csv' ? parseCsv(source, mapping) : parseJson(source, mapping);
}
