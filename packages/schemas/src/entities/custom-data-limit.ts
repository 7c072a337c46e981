// Zod-free (me.ts re-exports these), so the console's first page checks saved custom data without downloading zod.

/** Custom data is one JSON object; 64 KiB keeps a user row small. */
export const MAX_CUSTOM_DATA_BYTES = 64 * 1024;

/** Whether custom data is within MAX_CUSTOM_DATA_BYTES as JSON (UTF-8). */
export function isCustomDataWithinLimit(value: Record<string, unknown>): boolean {
  return new TextEncoder().encode(JSON.stringify(value)).length <= MAX_CUSTOM_DATA_BYTES;
}
