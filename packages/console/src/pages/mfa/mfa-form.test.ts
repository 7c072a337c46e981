import { defaultSignInExperience, mfaSettingsProblems, type SignInExperience } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { formToPatch, type MfaForm, mfaFormSchema, mfaPolicyOptions, mfaServerErrors } from './mfa-form.ts';

const saved: SignInExperience = { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) };
const resolve = schemaResolver(mfaFormSchema);
const options = { fields: {}, shouldUseNativeValidation: false };

const forms: MfaForm[] = [false, true].flatMap((totp) =>
  [false, true].flatMap((webAuthn) =>
    [false, true].flatMap((backupCode) =>
      mfaPolicyOptions.map((policy) => ({
        totp,
        webAuthn,
        backupCode,
        policy,
        organizationRequiredMfaPolicy: 'Mandatory' as const,
      })),
    ),
  ),
);

describe('the MFA form holds the shared MFA rules (issue 44)', () => {
  it.each(forms)('refuses exactly what the server refuses, at the field of its refusal: %o', async (values) => {
    const { errors } = await resolve(values, undefined, options);
    // What the server would say of the settings this form sends (services/sign-in-experience.ts names the first).
    const problems = mfaSettingsProblems(formToPatch(values, saved).mfa ?? saved.mfa);
    const fieldOf = (problem: string) => mfaServerErrors.codes?.[`sign_in_experiences.${problem}`];
    expect(Object.keys(errors).sort()).toEqual(problems.map(fieldOf).sort());
  });
});
