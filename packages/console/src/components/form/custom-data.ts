import { customDataSchema, MAX_CUSTOM_DATA_BYTES } from '@gatehouse/schemas';

export type CustomDataProblem = 'invalid_json' | 'not_object' | 'too_large';
export type CustomDataResult = { ok: true; value: Record<string, unknown> } | { ok: false; problem: CustomDataProblem };

/** Custom data as the editor shows it: the whole object, indented. */
export function customDataText(value: Record<string, unknown>): string {
  return JSON.stringify(value, null, 2);
}

/**
 * The editor's text as custom data (spec §5: bad JSON is 'invalid JSON format' and never reaches the server). The
 * API takes one JSON object of at most 64 KiB (the shared customDataSchema); an emptied editor means no custom data.
 */
export function parseCustomData(text: string): CustomDataResult {
  if (text.trim() === '') return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'invalid_json' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, problem: 'not_object' };
  const result = customDataSchema.safeParse(parsed);
  return result.success ? { ok: true, value: result.data } : { ok: false, problem: 'too_large' };
}

export const maxCustomDataKib = MAX_CUSTOM_DATA_BYTES / 1024;
