import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** One refusal of a form's schema: its path, its code, the limits it names, the value refused (`input`). */
export type SchemaIssue = z.core.$ZodIssue;

/**
 * A form's words for a refused value, in the interface language; undefined keeps the schema's own message. Forms that
 * check rules of their own (a row's duplicate, a rule across fields) add issues whose `message` names the rule, and
 * the wording turns that name into a sentence.
 */
export type IssueWording = (issue: SchemaIssue) => string | undefined;

/** A zod schema by what it reads and gives (zodResolver's own typing), so a form's type follows a generic schema. */
type SchemaOf<Output, Input> = { _zod: { output: Output; input: Input } };

type Options = {
  /** Whether a valid form submits its values as typed rather than the schema's output (trimmed, lower-cased…). */
  raw?: boolean;
};

/**
 * The console's one form resolver (docs/conventions.md "Forms"): the form's values are parsed by `schema`, a shared
 * schema of @gatehouse/schemas or one built from them (rules across fields included), and each failing field gets the
 * message of its first issue, worded by `wording`. Unlike zodResolver's error map, the wording is asked for every
 * issue: zod lets a check's own message (the schemas' English one, for API callers) win over any error map.
 *
 *   const resolver = useMemo(() => schemaResolver(roleFormSchema, roleWording(t)), [t]);
 */
export function schemaResolver<
  Input extends FieldValues,
  Output,
  Schema extends SchemaOf<Output, Input> = SchemaOf<Output, Input>,
>(schema: Schema, wording?: IssueWording): Resolver<z.input<Schema>, unknown, z.output<Schema>>;
/** With `raw`, the form's own type of values (`Values`), which the schema checks without changing them. */
export function schemaResolver<Values extends FieldValues>(
  schema: z.ZodType,
  wording: IssueWording | undefined,
  options: Options & { raw: true },
): Resolver<Values>;
export function schemaResolver(
  schema: z.ZodType,
  wording?: IssueWording,
  { raw = false }: Options = {},
): Resolver<FieldValues, unknown, unknown> {
  return async (values, _context, options) => {
    // `reportInput` keeps the refused value on each issue, for wordings that depend on it (a pasted URL, a blank).
    const result = await schema.safeParseAsync(values, { reportInput: true });
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: raw ? values : result.data, errors: {} };
    }
    // No inherited members: a field named like one (`constructor`) still gets its error.
    const flat: Record<string, FieldError> = Object.create(null);
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      flat[path] ??= { type: issue.code, message: wording?.(issue) ?? issue.message };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
