/** Spec §9: the global cap on any upload; a smaller per-uploader limit can only tighten it (spec §5). */
export const uploadSizeCapBytes = 20 * 1024 * 1024;

/** Spec §9: the profile image uploader's limit and default types. */
export const profileImageMaxBytes = 500 * 1024;
export const profileImageMimeTypes = [
  'image/svg+xml',
  'image/png',
  'image/jpeg',
  'image/vnd.microsoft.icon',
  'image/x-icon',
] as const;

/** Spec §9's allowed image types, without zip: an image uploader has no use for archives. */
export const imageMimeTypes = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/vnd.microsoft.icon',
  'image/x-icon',
  'image/svg+xml',
  'image/tiff',
  'image/webp',
  'image/bmp',
] as const;

const extensionByMimeType: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/vnd.microsoft.icon': 'ico',
  'image/x-icon': 'ico',
  'image/svg+xml': 'svg',
  'image/tiff': 'tiff',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'application/zip': 'zip',
};

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
