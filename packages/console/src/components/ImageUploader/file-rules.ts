import { extensionByMimeType, uploadSizeCapBytes } from '@gatehouse/schemas';

// The upload rules themselves live in @gatehouse/schemas: the server enforces the same limits.
export { imageMimeTypes, profileImageMaxBytes, profileImageMimeTypes, uploadSizeCapBytes } from '@gatehouse/schemas';

/** The names users know ('svg', 'ico'), once each, in the order of the allowed types. */
export function allowedExtensions(mimeTypes: readonly string[]): string[] {
  const names = mimeTypes.map((type) => extensionByMimeType[type] ?? type.split('/').pop() ?? type);
  return [...new Set(names)];
}

const sizeUnits = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Spec §9: sizes are shown with units from Bytes to YB, in steps of 1024. */
export function formatFileSize(bytes: number, locale?: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < sizeUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  return `${number} ${sizeUnits[unit]}`;
}

export type FileProblem =
  | { key: 'error_file_count' }
  | { key: 'error_file_type'; extensions: string[] }
  | { key: 'error_file_size'; limitBytes: number };

/** Spec §5: one file only, of an allowed type, no larger than the limit. */
export function checkFiles(
  files: readonly File[],
  rules: { maxBytes: number; mimeTypes: readonly string[] },
): FileProblem | undefined {
  const [file] = files;
  if (files.length !== 1 || !file) return { key: 'error_file_count' };
  if (!rules.mimeTypes.includes(file.type)) {
    return { key: 'error_file_type', extensions: allowedExtensions(rules.mimeTypes) };
  }
  const limitBytes = Math.min(rules.maxBytes, uploadSizeCapBytes);
  if (file.size > limitBytes) return { key: 'error_file_size', limitBytes };
  return undefined;
}
