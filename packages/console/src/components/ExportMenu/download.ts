import { request } from '../../api/client.ts';
import { listQuery } from '../../api/management.ts';

export type ExportFormat = 'csv' | 'json';
export type ExportFilters = Record<string, string | number | boolean | readonly string[] | undefined>;

/** `users-2026-11-21.csv`: the base name, today's date (UTC) and the format's extension. */
export function exportFileName(baseName: string, format: ExportFormat, now = new Date()): string {
  return `${baseName}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * Fetches an export through the console's HTTP client (bearer token, language, session handling) and hands the
 * body to the browser as a file. A plain link cannot carry the token, so the file goes fetch → blob → object URL.
 */
/** An export may run this long before the console gives up on it. */
export const exportTimeoutMs = 30 * 60_000;

export async function downloadExport(
  url: string,
  format: ExportFormat,
  filters: ExportFilters,
  fileName: string,
): Promise<void> {
  const response = await request(`${url}${listQuery({ ...filters, format })}`, {
    headers: { Accept: format === 'csv' ? 'text/csv' : 'application/json' },
    // The body streams every matching row (a million users take minutes): the usual 20 s would cut it off.
    timeoutMs: exportTimeoutMs,
  });
  saveFile(await response.blob(), fileName);
}

/** Hands a blob to the browser as a downloaded file (exports, backup codes). */
export function saveFile(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; revoking on the next task keeps it valid until then.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
}
