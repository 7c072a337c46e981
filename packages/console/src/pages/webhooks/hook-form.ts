import {
  HOOK_HEADERS_MAX,
  HOOK_NAME_MAX,
  HOOK_RETRIES_DEFAULT,
  HOOK_RETRIES_MAX,
  HOOK_URL_MAX,
  type Hook,
  type HookCreate,
  type HookEvent,
  type HookPatch,
  hookCreateSchema,
  hookEventsSchema,
  hookHeadersSchema,
  hookRetriesSchema,
  hookUrlSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { IssueWording } from '../../components/form/schema-resolver.ts';
import type { TFunction } from '../../i18n/runtime.ts';

/**
 * The create and settings forms check the shared rules of POST/PATCH /hooks (schemas entities/hook.ts; spec §3 hook,
 * §5 retries 0–3) before any request. Headers are edited as rows and sent as one object.
 */
export type HeaderRow = { key: string; value: string };
export type HookForm = {
  name: string;
  events: HookEvent[];
  url: string;
  headers: HeaderRow[];
  retries: number | null;
  enabled: boolean;
};

/** Which rule a header row broke, as a translation key of webhooks:errors. */
type HeaderRule =
  | 'header_name_required'
  | 'header_name_invalid'
  | 'header_reserved'
  | 'header_value_invalid'
  | 'header_duplicate';

const isBlank = (row: HeaderRow) => row.key.trim() === '' && row.value === '';

/** The rule a filled header row breaks, if any; `seen` holds the names of the rows above it. */
function headerRuleOf(row: HeaderRow, seen: ReadonlySet<string>): { rule: HeaderRule; field: 'key' | 'value' } | null {
  const name = row.key.trim();
  if (!name) return { rule: 'header_name_required', field: 'key' };
  if (seen.has(name.toLowerCase())) return { rule: 'header_duplicate', field: 'key' };
  const parsed = hookHeadersSchema.safeParse({ [name]: row.value });
  if (parsed.success) return null;
  const [first] = parsed.error.issues;
  // The record's value rules report a path of the header name; its key rules report 'invalid_key'.
  if (first?.code !== 'invalid_key' && first?.path.length === 1)
    return { rule: 'header_value_invalid', field: 'value' };
  const isReserved = JSON.stringify(parsed.error.issues).includes('overridden');
  return { rule: isReserved ? 'header_reserved' : 'header_name_invalid', field: 'key' };
}

/** Rows with nothing in them are left out; the rest must make a valid header object. */
const headerRowsSchema = z.array(z.object({ key: z.string(), value: z.string() })).superRefine((rows, context) => {
  const seen = new Set<string>();
  if (rows.filter((row) => !isBlank(row)).length > HOOK_HEADERS_MAX) {
    context.addIssue({ code: 'custom', message: 'headers_too_many', path: [] });
  }
  rows.forEach((row, index) => {
    if (isBlank(row)) return;
    const broken = headerRuleOf(row, seen);
    seen.add(row.key.trim().toLowerCase());
    if (broken) context.addIssue({ code: 'custom', message: broken.rule, path: [index, broken.field] });
  });
});

export const hookFormSchema = z.object({
  name: hookCreateSchema.shape.name,
  events: hookEventsSchema,
  url: hookUrlSchema,
  headers: headerRowsSchema,
  retries: hookRetriesSchema,
  enabled: z.boolean(),
});

export const emptyHookForm: HookForm = {
  name: '',
  events: [],
  url: '',
  headers: [{ key: '', value: '' }],
  retries: HOOK_RETRIES_DEFAULT,
  enabled: true,
};

export function hookToForm(hook: Hook): HookForm {
  const rows = Object.entries(hook.config.headers).map(([key, value]) => ({ key, value }));
  return {
    name: hook.name,
    events: hook.events as HookEvent[],
    url: hook.config.url,
    // One empty row to type into when there are none.
    headers: rows.length ? rows : [{ key: '', value: '' }],
    retries: hook.config.retries,
    enabled: hook.enabled,
  };
}

function headersOf(rows: readonly HeaderRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => !isBlank(row)).map((row) => [row.key.trim(), row.value]));
}

export function formToCreate(values: HookForm): HookCreate {
  return {
    name: values.name.trim(),
    events: values.events,
    config: {
      url: values.url.trim(),
      headers: headersOf(values.headers),
      retries: values.retries ?? HOOK_RETRIES_DEFAULT,
    },
    enabled: values.enabled,
  };
}

/** The settings tab saves everything but `enabled`, which has its own action. */
export function formToPatch(values: HookForm): HookPatch {
  const { enabled: _enabled, ...create } = formToCreate(values);
  return create;
}

/** The schema's rules, said in the interface language with the limit they name. */
export const hookWording =
  (t: TFunction<'webhooks'>): IssueWording =>
  (issue) => {
    const [field] = issue.path;
    if (field === 'name') {
      return issue.code === 'too_big' ? t('errors.name_too_long', { max: HOOK_NAME_MAX }) : t('errors.name_required');
    }
    if (field === 'events') return t('errors.events_required');
    if (field === 'url') {
      if (issue.code === 'too_big') return t('errors.url_too_long', { max: HOOK_URL_MAX });
      if (issue.message.includes('credentials')) return t('errors.url_credentials');
      return t('errors.url_invalid');
    }
    if (field === 'retries') return t('errors.retries_range', { min: 0, max: HOOK_RETRIES_MAX });
    if (field === 'headers') {
      if (issue.message === 'headers_too_many') return t('errors.headers_too_many', { max: HOOK_HEADERS_MAX });
      const rule = issue.message as HeaderRule;
      return t(`errors.${rule}`);
    }
    return undefined;
  };
