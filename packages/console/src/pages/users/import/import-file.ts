import { type UserImportField, type UserImportFormat, userImportFields } from '@gatehouse/schemas';

/** What the dialog learns from a chosen file before anything is sent. */
export type ImportFile = { name: string; text: string; format: UserImportFormat; columns: string[] };

/** JSON when the name ends in .json or the text starts with '[', else CSV. */
export function importFormatOf(name: string, text: string): UserImportFormat {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.csv$/i.test(name)) return 'csv';
  return text.trimStart().startsWith('[') ? 'json' : 'csv';
}

/** The cells of a CSV file's first record (RFC 4180 quoting; a quoted header may hold commas and line breaks). */
export function csvHeader(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell.trim());
      cell = '';
    } else if (char === '\n' || char === '\r') break;
    else cell += char;
  }
  cells.push(cell.trim());
  return cells.filter((column) => column !== '');
}

/** The keys of a JSON import's objects (the first 1,000 are enough to find every column in practice). */
export function jsonColumns(text: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const keys = new Set<string>();
  for (const item of parsed.slice(0, 1000)) {
    if (item && typeof item === 'object' && !Array.isArray(item)) for (const key of Object.keys(item)) keys.add(key);
  }
  return [...keys];
}

/** A column's field when its name says it ('Email', 'primary_email', 'phone' …), else undefined (not imported). */
export function guessField(column: string): UserImportField | undefined {
  const plain = column.toLowerCase().replace(/[\s_-]/g, '');
  const exact = userImportFields.find((field) => field.toLowerCase() === plain);
  if (exact) return exact;
  const aliases: Record<string, UserImportField> = {
    email: 'primaryEmail',
    mail: 'primaryEmail',
    emailaddress: 'primaryEmail',
    phone: 'primaryPhone',
    phonenumber: 'primaryPhone',
    mobile: 'primaryPhone',
    login: 'username',
    user: 'username',
    fullname: 'name',
    displayname: 'name',
    picture: 'avatar',
    digest: 'passwordDigest',
    passwordhash: 'passwordDigest',
    hash: 'passwordDigest',
    algorithm: 'passwordAlgorithm',
    hashalgorithm: 'passwordAlgorithm',
  };
  return aliases[plain];
}

/** The first guess of a mapping: each field from at most one column (the first that names it). */
export function initialMapping(columns: readonly string[]): Record<string, UserImportField | ''> {
  const taken = new Set<UserImportField>();
  return Object.fromEntries(
    columns.map((column) => {
      const field = guessField(column);
      if (!field || taken.has(field)) return [column, ''];
      taken.add(field);
      return [column, field];
    }),
  );
}
