import {
  checkRedirectUri,
  ID_TOKEN_TTL_SECONDS,
  originSchema,
  REFRESH_TOKEN_TTL_DAYS,
  type RedirectUriKind,
  type RedirectUriProblemCode,
  webUrlSchema,
} from '@gatehouse/schemas';
import type { z } from 'zod';
import type { IssueWording } from '../../../components/form/schema-resolver.ts';

/** The form fields whose messages name them ('Application name is required.'). */
export type FieldName =
  | 'type'
  | 'name'
  | 'description'
  | 'entityId'
  | 'acsUrl'
  | 'certificate'
  | 'secretName'
  | 'attributeClaim'
  | 'attributeName';

/**
 * The words of every rule, given by the page from its translations. The rules themselves come from
 * @gatehouse/schemas (one source with the server); the console only chooses how to say why a value is refused.
 */
export type RuleMessages = {
  required: (field: FieldName) => string;
  tooLong: (field: FieldName, max: number) => string;
  redirectUri: (problem: RedirectUriProblemCode, kind: RedirectUriKind) => string;
  origin: () => string;
  webUrl: () => string;
  range: (min: number, max: number) => string;
  certificate: () => string;
  duplicate: () => string;
};

/** Number fields and their ranges (spec §5 refreshTokenTtlInDays 1–90; ID tokens 60 s–1 day). */
const numberRanges: Record<string, { min: number; max: number }> = {
  idTokenTtl: ID_TOKEN_TTL_SECONDS,
  refreshTokenTtlInDays: REFRESH_TOKEN_TTL_DAYS,
};

const fieldNames = new Set<string>([
  'type',
  'name',
  'description',
  'entityId',
  'acsUrl',
  'certificate',
  'secretName',
  'attributeClaim',
  'attributeName',
]);

function fieldOf(path: readonly PropertyKey[] | undefined): { field: FieldName; key: string } {
  const keys = (path ?? []).filter((key): key is string => typeof key === 'string');
  const key = keys.at(-1) ?? '';
  const field = [...keys].reverse().find((name) => fieldNames.has(name));
  return { field: (field ?? 'name') as FieldName, key };
}

/**
 * The forms' wording (`schemaResolver`) of zod's own checks (min, max, types) of the shared schemas, which carry no
 * words of their own. The forms' own rules (`custom` issues: a list's rows, a masked secret, a certificate) carry their
 * message in the interface language already, from `RuleMessages`, and keep it.
 */
export function ruleWording(messages: RuleMessages): IssueWording {
  return (issue) => {
    if (issue.code === 'custom') return undefined;
    const { field, key } = fieldOf(issue.path);
    const range = numberRanges[key];
    // Empty, fractional or out of range: one message that says what is accepted.
    if (range) return messages.range(range.min, range.max);
    const isEmpty = issue.input === '' || issue.input === null || issue.input === undefined;
    if (issue.code === 'too_small' && issue.origin === 'string') return messages.required(field);
    if (issue.code === 'too_big' && issue.origin === 'string') return messages.tooLong(field, Number(issue.maximum));
    if (isEmpty) return messages.required(field);
    return undefined;
  };
}

/** Why rows of a typed list are refused: rows left empty are ignored, repeats and rows `check` refuses are not. */
export function listProblems(
  values: readonly string[],
  check: (value: string) => string | undefined,
  messages: RuleMessages,
): Array<{ index: number; message: string }> {
  const seen = new Set<string>();
  return values.flatMap((raw, index) => {
    const value = raw.trim();
    if (!value) return [];
    const message = seen.has(value) ? messages.duplicate() : check(value);
    seen.add(value);
    return message ? [{ index, message }] : [];
  });
}

/** The spec §5 scheme rule of this kind of application, in the form's words. */
export function redirectUriCheck(kind: RedirectUriKind, messages: RuleMessages) {
  return (uri: string): string | undefined => {
    const problem = checkRedirectUri(uri, kind);
    return problem && messages.redirectUri(problem.code, kind);
  };
}

export function originCheck(messages: RuleMessages) {
  return (origin: string): string | undefined =>
    originSchema.safeParse(origin).success ? undefined : messages.origin();
}

/** Adds an issue at `path.index` for each refused row. */
export function addListIssues(
  ctx: z.RefinementCtx,
  path: string,
  problems: ReadonlyArray<{ index: number; message: string }>,
): void {
  for (const { index, message } of problems) ctx.addIssue({ code: 'custom', message, path: [path, index] });
}

/** An optional http(s) URL: empty means none. */
export function webUrlProblem(value: string, messages: RuleMessages): string | undefined {
  return value.trim() && !webUrlSchema.safeParse(value.trim()).success ? messages.webUrl() : undefined;
}

/**
 * Options for a form schema's cross-field refinement: zod skips an object's refinements once one of its fields has
 * failed, but a form should show every problem at once (an empty name and a bad redirect URI together).
 */
export const alwaysRefine = { when: () => true } as const;

/** The rows of a URI list worth sending: trimmed, without the empty row the input always offers. */
export function cleanList(values: readonly string[]): string[] {
  return values.map((value) => value.trim()).filter(Boolean);
}
