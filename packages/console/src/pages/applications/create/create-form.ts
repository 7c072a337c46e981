import {
  type ApplicationType,
  applicationDescriptionSchema,
  applicationNameSchema,
  applicationTypes,
  type QuotaKey,
  redirectUriKind,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { NewApplication } from '../../../api/applications.ts';
import { traitsOf } from '../application-types.ts';
import {
  addListIssues,
  alwaysRefine,
  cleanList,
  listProblems,
  type RuleMessages,
  redirectUriCheck,
} from '../form/rules.ts';

export const emptyCreateForm: CreateFormValues = {
  name: '',
  description: '',
  redirectUris: [],
  isThirdParty: false,
};

/**
 * The create form's rules: the shared name and description rules, and for types with redirect URIs the spec §5
 * scheme rule of the chosen type, row by row, so the error shows beside the row before anything is sent.
 */
export function createFormSchema(messages: RuleMessages) {
  return z
    .object({
      // The form starts with no type chosen; the pipe makes that 'required' instead of a type error.
      type: z.enum(applicationTypes).optional().pipe(z.enum(applicationTypes)),
      name: applicationNameSchema,
      description: applicationDescriptionSchema,
      redirectUris: z.array(z.string()),
      isThirdParty: z.boolean(),
    })
    .superRefine((values, ctx) => {
      // Runs even when other fields failed, so the type may still be missing.
      if (!values.type || !traitsOf(values.type).redirectUris) return;
      const check = redirectUriCheck(redirectUriKind(values.type), messages);
      addListIssues(ctx, 'redirectUris', listProblems(values.redirectUris, check, messages));
    }, alwaysRefine);
}

/** The form's values: no type until one is picked. */
export type CreateFormValues = z.input<ReturnType<typeof createFormSchema>>;
export type CreateFormOutput = z.output<ReturnType<typeof createFormSchema>>;

/** The API call for the checked form: only the fields the chosen type has. */
export function toNewApplication(values: CreateFormOutput): NewApplication {
  const description = values.description.trim() || null;
  if (values.type === 'SAML') return { type: 'SAML', body: { name: values.name, description } };
  const traits = traitsOf(values.type);
  const redirectUris = cleanList(values.redirectUris);
  return {
    type: values.type,
    body: {
      name: values.name,
      type: values.type,
      description,
      ...(traits.redirectUris && redirectUris.length > 0 && { oidcClientMetadata: { redirectUris } }),
      ...(traits.thirdParty && { isThirdParty: values.isThirdParty }),
    },
  };
}

/** API field paths of POST /applications and /saml-applications → the create form's paths. */
export function createFormPath(apiPath: string): string | undefined {
  const uri = /^oidcClientMetadata\.redirectUris\.(\d+)$/.exec(apiPath);
  if (uri) return `redirectUris.${uri[1]}`;
  return ['name', 'description', 'isThirdParty', 'type'].includes(apiPath) ? apiPath : undefined;
}

/**
 * The plan quota a new application counts against (the server's `applicationQuotaKey`): third-party first, then by
 * type. What the create page's plan gate (issue 26) marks for the chosen type.
 */
export function applicationQuotaKey(type: ApplicationType, isThirdParty: boolean): QuotaKey {
  if (isThirdParty) return 'thirdPartyApplicationsLimit';
  if (type === 'MachineToMachine') return 'machineToMachineLimit';
  if (type === 'SAML') return 'samlApplicationsLimit';
  return 'applicationsLimit';
}
