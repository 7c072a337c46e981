import {
  type MfaSettingsProblem,
  mfaPolicies,
  mfaPoliciesNeedingFactor,
  mfaSettingsProblems,
  mfaSetUpFactors,
  type SignInExperience,
  type SignInExperiencePatch,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { IssueWording } from '../../components/form/schema-resolver.ts';
import type { ServerErrorMapping } from '../../components/submit/server-errors.ts';
import type { TFunction } from '../../i18n/runtime.ts';

/**
 * The MFA page's form over the sign-in experience's `mfa` (docs/areas/mfa.md). The sign-in pages set up and ask for
 * an authenticator app (TOTP), passkeys (WebAuthn) and backup codes, so those are the factors offered; others a tenant
 * holds (codes sent by email or SMS, set through the API) are kept as they are.
 */
export type MfaPolicy = (typeof mfaPolicies)[number];

export type MfaForm = {
  totp: boolean;
  webAuthn: boolean;
  backupCode: boolean;
  policy: MfaPolicy;
  organizationRequiredMfaPolicy: 'Mandatory' | 'NoPrompt';
};

/** In the order the page shows them (spec §4 "MFA policy"). */
export const mfaPolicyOptions = [
  'UserControlled',
  'Mandatory',
  'PromptAtSignInAndSignUp',
  'PromptOnlyAtSignIn',
  'NoPrompt',
] as const satisfies readonly MfaPolicy[];

/** Policies that have users without a factor set one up: they need a factor users can set up (the shared rule). */
export const policiesNeedingFactor: ReadonlySet<MfaPolicy> = new Set(mfaPoliciesNeedingFactor);

export const organizationPolicyOptions = ['Mandatory', 'NoPrompt'] as const;

/** The factors of the form's switches, in the order the API lists them (`mfaFactors`). */
function formFactors(values: Pick<MfaForm, 'totp' | 'webAuthn' | 'backupCode'>) {
  return [
    ...(values.totp ? ['Totp' as const] : []),
    ...(values.webAuthn ? ['WebAuthn' as const] : []),
    ...(values.backupCode ? ['BackupCode' as const] : []),
  ];
}

/** Whether a factor users can set up at sign-in is on, which the prompting policies and backup codes need. */
export function hasSetUpFactor(values: Pick<MfaForm, 'totp' | 'webAuthn'>): boolean {
  return formFactors({ ...values, backupCode: false }).some((factor) =>
    (mfaSetUpFactors as readonly string[]).includes(factor),
  );
}

/** The factors the page shows, in the order the API lists them (`mfaFactors`). */
const offeredFactors = ['Totp', 'WebAuthn', 'BackupCode'] as const;

export function mfaToForm(sie: SignInExperience): MfaForm {
  const { factors, policy, organizationRequiredMfaPolicy } = sie.mfa;
  return {
    totp: factors.includes('Totp'),
    webAuthn: factors.includes('WebAuthn'),
    backupCode: factors.includes('BackupCode'),
    policy,
    // Unset is read by the sign-in as "not NoPrompt": members are asked.
    organizationRequiredMfaPolicy: organizationRequiredMfaPolicy ?? 'Mandatory',
  };
}

export function formToPatch(values: MfaForm, saved: SignInExperience): SignInExperiencePatch {
  const kept = saved.mfa.factors.filter((factor) => !(offeredFactors as readonly string[]).includes(factor));
  return {
    mfa: {
      factors: [
        ...(values.totp ? ['Totp' as const] : []),
        ...(values.webAuthn ? ['WebAuthn' as const] : []),
        ...kept,
        ...(values.backupCode ? ['BackupCode' as const] : []),
      ],
      policy: values.policy,
      organizationRequiredMfaPolicy: values.organizationRequiredMfaPolicy,
    },
  };
}

/** The field each shared MFA rule is shown at, for the form's check and for the server's refusal alike. */
const problemFields = {
  backup_code_requires_totp: 'backupCode',
  mfa_policy_requires_factor: 'policy',
} as const satisfies Record<MfaSettingsProblem, keyof MfaForm>;

/** The form's rules: the shared MFA rules across fields (`mfaSettingsProblems`), each at its field. */
export const mfaFormSchema = z
  .object({
    totp: z.boolean(),
    webAuthn: z.boolean(),
    backupCode: z.boolean(),
    policy: z.enum(mfaPolicies),
    organizationRequiredMfaPolicy: z.enum(['Mandatory', 'NoPrompt']),
  })
  .superRefine((values, context) => {
    for (const problem of mfaSettingsProblems({ factors: formFactors(values), policy: values.policy })) {
      context.addIssue({ code: 'custom', message: problem, path: [problemFields[problem]] });
    }
  });

const problemMessages = {
  backup_code_requires_totp: 'errors.backup_code_requires_factor',
  mfa_policy_requires_factor: 'errors.policy_requires_factor',
} as const satisfies Record<MfaSettingsProblem, string>;

/** The shared rules' names, said in the interface language. */
export const mfaWording =
  (t: TFunction<'mfa'>): IssueWording =>
  (issue) =>
    Object.hasOwn(problemMessages, issue.message) ? t(problemMessages[issue.message as MfaSettingsProblem]) : undefined;

/** The server's refusals of a save, at the field they concern. */
export const mfaServerErrors: ServerErrorMapping<MfaForm> = {
  codes: {
    'sign_in_experiences.backup_code_requires_totp': problemFields.backup_code_requires_totp,
    'sign_in_experiences.mfa_policy_requires_factor': problemFields.mfa_policy_requires_factor,
  },
  paths: (apiPath) => {
    const [head, field] = apiPath.split('.');
    if (head !== 'mfa') return undefined;
    if (field === 'factors') return 'totp';
    if (field === 'policy' || field === 'organizationRequiredMfaPolicy') return field;
    return undefined;
  },
};
