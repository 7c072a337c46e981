import {
  accessTokenContextSample,
  accessTokenSample,
  clientCredentialsContextSample,
  clientCredentialsTokenSample,
  defaultJwtCustomizerScript,
  environmentVariableNameSchema,
  environmentVariablesSchema,
  JWT_CUSTOMIZER_MAX_VARIABLES,
  JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH,
  JWT_CUSTOMIZER_VARIABLE_MAX_LENGTH,
  type JwtCustomizer,
  type JwtCustomizerResponse,
  type JwtCustomizerTest,
  type JwtCustomizerTokenType,
  jwtCustomizerSchema,
  MASKED_SECRET,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { customDataText, maxCustomDataKib, parseCustomData } from '../../../components/form/custom-data.ts';
import type { KeyValueRow } from '../../../components/form/KeyValueRows.tsx';
import type { IssueWording } from '../../../components/form/schema-resolver.ts';
import type { TFunction } from '../../../i18n/runtime.ts';

/**
 * The script editor's values (API shape ↔ form shape): the samples are edited as JSON text and the environment
 * variables as rows. Saved variable values arrive masked (`********`) and go back masked unless retyped, which keeps
 * the stored value.
 */
export type VariableRow = KeyValueRow;
export type JwtEditorForm = {
  script: string;
  tokenSample: string;
  contextSample: string;
  environmentVariables: VariableRow[];
  blockIssuanceOnError: boolean;
};

const samples = {
  'access-token': { token: accessTokenSample, context: accessTokenContextSample },
  // Machine-to-machine tokens have no user: the context is the application (and the grant) only.
  'client-credentials': { token: clientCredentialsTokenSample, context: clientCredentialsContextSample },
} as const satisfies Record<JwtCustomizerTokenType, { token: object; context: object }>;

export function toEditorForm(tokenType: JwtCustomizerTokenType, saved?: JwtCustomizerResponse): JwtEditorForm {
  return {
    script: saved?.script ?? defaultJwtCustomizerScript,
    tokenSample: customDataText(saved?.tokenSample ?? samples[tokenType].token),
    contextSample: customDataText(saved?.contextSample ?? samples[tokenType].context),
    environmentVariables: Object.entries(saved?.environmentVariables ?? {}).map(([key, value]) => ({ key, value })),
    // As the API: a failing script refuses the token unless the admin turns that off.
    blockIssuanceOnError: saved?.blockIssuanceOnError ?? true,
  };
}

const isBlank = (row: VariableRow) => row.key.trim() === '' && row.value === '';

export const isMaskedValue = (value: string): boolean => value === MASKED_SECRET;

function variablesOf(rows: readonly VariableRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => !isBlank(row)).map((row) => [row.key.trim(), row.value]));
}

/** Parsed samples of values the form's rules accepted. */
function sampleOf(text: string): Record<string, unknown> {
  const parsed = parseCustomData(text);
  return parsed.ok ? parsed.value : {};
}

/** PUT and PATCH send the whole form: what is shown is what is stored. */
export function toJwtCustomizer(values: JwtEditorForm): JwtCustomizer {
  return {
    script: values.script,
    environmentVariables: variablesOf(values.environmentVariables),
    tokenSample: sampleOf(values.tokenSample),
    contextSample: sampleOf(values.contextSample),
    blockIssuanceOnError: values.blockIssuanceOnError,
  };
}

/** The Test runs the script as typed now against the samples as typed now. */
export function toJwtCustomizerTest(tokenType: JwtCustomizerTokenType, values: JwtEditorForm): JwtCustomizerTest {
  const customizer = toJwtCustomizer(values);
  return {
    tokenType,
    script: customizer.script,
    environmentVariables: customizer.environmentVariables,
    context: customizer.contextSample,
    token: customizer.tokenSample ?? {},
  };
}

/** Which rule a value broke, as a key of customize_jwt:errors; `max` for the rules that name a limit. */
export type EditorRule =
  | 'script_required'
  | 'script_too_long'
  | 'json_invalid'
  | 'json_not_object'
  | 'json_too_large'
  | 'variable_name_required'
  | 'variable_name_invalid'
  | 'variable_duplicate'
  | 'variable_value_too_long'
  | 'variable_value_again'
  | 'variables_too_many';
export type EditorIssue = { path: string; rule: EditorRule; max?: number };

const sampleRules = {
  invalid_json: 'json_invalid',
  not_object: 'json_not_object',
  too_large: 'json_too_large',
} as const;

/**
 * The shared rules of `jwtCustomizerSchema`, checked on what the form would send; `savedNames` are the variables
 * stored already, the only ones a masked value can stand for.
 */
export function editorIssues(values: JwtEditorForm, savedNames: ReadonlySet<string>): EditorIssue[] {
  const issues: EditorIssue[] = [];
  const script = jwtCustomizerSchema.shape.script.safeParse(values.script);
  if (!script.success) {
    const tooLong = script.error.issues.some((issue) => issue.code === 'too_big');
    issues.push(
      tooLong
        ? { path: 'script', rule: 'script_too_long', max: JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH }
        : { path: 'script', rule: 'script_required' },
    );
  }
  for (const field of ['tokenSample', 'contextSample'] as const) {
    const sample = parseCustomData(values[field]);
    if (!sample.ok) issues.push({ path: field, rule: sampleRules[sample.problem], max: maxCustomDataKib });
  }
  const seen = new Set<string>();
  const rows = values.environmentVariables;
  if (rows.filter((row) => !isBlank(row)).length > JWT_CUSTOMIZER_MAX_VARIABLES) {
    issues.push({ path: 'environmentVariables', rule: 'variables_too_many', max: JWT_CUSTOMIZER_MAX_VARIABLES });
  }
  rows.forEach((row, index) => {
    if (isBlank(row)) return;
    const name = row.key.trim();
    const at = (field: 'key' | 'value') => `environmentVariables.${index}.${field}`;
    if (!name) issues.push({ path: at('key'), rule: 'variable_name_required' });
    else if (seen.has(name)) issues.push({ path: at('key'), rule: 'variable_duplicate' });
    else if (!environmentVariableNameSchema.safeParse(name).success) {
      issues.push({ path: at('key'), rule: 'variable_name_invalid' });
    } else if (!environmentVariablesSchema.safeParse({ [name]: row.value }).success) {
      issues.push({ path: at('value'), rule: 'variable_value_too_long', max: JWT_CUSTOMIZER_VARIABLE_MAX_LENGTH });
    } else if (isMaskedValue(row.value) && !savedNames.has(name)) {
      issues.push({ path: at('value'), rule: 'variable_value_again' });
    }
    seen.add(name);
  });
  return issues;
}

/** The form's rules ({@link editorIssues}, the shared ones checked on what the form would send), each at its field. */
export function editorFormSchema(savedNames: ReadonlySet<string>) {
  return z.custom<JwtEditorForm>().superRefine((values, context) => {
    for (const { path, rule, max } of editorIssues(values, savedNames)) {
      context.addIssue({ code: 'custom', message: rule, path: path.split('.'), params: { max } });
    }
  });
}

/** The rules' names, said in the interface language with the limit they name. */
export const editorWording =
  (t: TFunction<'customize_jwt'>): IssueWording =>
  (issue) =>
    issue.code === 'custom' ? t(`errors.${issue.message as EditorRule}`, { max: issue.params?.max }) : undefined;

/** Where a 400's API path goes in this form (a variable's rule names the variable, not a row: the list shows it). */
export function formPathOf(apiPath: string): string | undefined {
  const [field] = apiPath.split('.');
  if (field === 'script' || field === 'tokenSample' || field === 'contextSample') return field;
  if (field === 'environmentVariables') return 'environmentVariables';
  return undefined;
}
