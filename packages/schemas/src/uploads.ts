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

export const extensionByMimeType: Record<string, string> = {
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
