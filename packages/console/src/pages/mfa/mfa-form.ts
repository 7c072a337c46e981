import type { mfaPolicies, SignInExperience, SignInExperiencePatch } from '@gatehouse/schemas';
import { useCallback } from 'react';
import type { FieldError, Resolver } from 'react-hook-form';
import type { ServerErrorMapping } from '../../components/submit/server-errors.ts';
import { useTranslation } from '../../i18n/react.tsx';

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

/** Policies that have users without a factor set one up: they need a factor users can set up (app or passkey). */
export const policiesNeedingFactor: ReadonlySet<MfaPolicy> = new Set([
  'Mandatory',
  'PromptAtSignInAndSignUp',
  'PromptOnlyAtSignIn',
]);

export const organizationPolicyOptions = ['Mandatory', 'NoPrompt'] as const;

/** The factors a user can set up at sign-in, which the prompting policies and backup codes need one of. */
export function hasSetUpFactor(values: Pick<MfaForm, 'totp' | 'webAuthn'>): boolean {
  return values.totp || values.webAuthn;
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

/** The rules across fields, as the server has them (services/sign-in-experience.ts), said before anything is sent. */
export function useMfaFormResolver(): Resolver<MfaForm> {
  const { t } = useTranslation('mfa');
  return useCallback<Resolver<MfaForm>>(
    async (values) => {
      const errors: Partial<Record<keyof MfaForm, FieldError>> = {};
      if (values.backupCode && !hasSetUpFactor(values)) {
        errors.backupCode = { type: 'combination', message: t('errors.backup_code_requires_factor') };
      }
      if (!hasSetUpFactor(values) && policiesNeedingFactor.has(values.policy)) {
        errors.policy = { type: 'combination', message: t('errors.policy_requires_factor') };
      }
      return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
    },
    [t],
  );
}

/** The server's refusals of a save, at the field they concern. */
export const mfaServerErrors: ServerErrorMapping<MfaForm> = {
  codes: {
    'sign_in_experiences.backup_code_requires_totp': 'backupCode',
    'sign_in_experiences.mfa_policy_requires_factor': 'policy',
  },
  paths: (apiPath) => {
    const [head, field] = apiPath.split('.');
    if (head !== 'mfa') return undefined;
    if (field === 'factors') return 'totp';
    if (field === 'policy' || field === 'organizationRequiredMfaPolicy') return field;
    return undefined;
  },
};
