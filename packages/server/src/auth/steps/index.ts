import { codeSignInStep } from './code-sign-in.ts';
import { consentStep } from './consent.ts';
import { forgotPasswordStep } from './forgot-password.ts';
import { mfaStep } from './mfa.ts';
import { passkeyStep } from './passkey.ts';
import { passwordStep } from './password.ts';
import { registrationStep } from './registration.ts';
import { socialStep } from './social.ts';
import { ssoStep } from './sso.ts';
import { startStep } from './start.ts';
import type { SignInStep } from './step.ts';
import { welcomeStep } from './welcome.ts';

/**
 * Every step of the sign-in, in one table (docs/areas/sign-in.md "The steps"). A first factor (`proves: 'identity'`)
 * ends in `kit.signedIn`, which opens the second step or completes the sign-in (services/sign-in-completion.ts: the one
 * place a sign-in is recorded). routes/interaction.ts mounts this table and nothing else.
 */
export const signInSteps: readonly SignInStep[] = [
  startStep,
  welcomeStep,
  registrationStep,
  passwordStep,
  codeSignInStep,
  passkeyStep,
  socialStep,
  ssoStep,
  forgotPasswordStep,
  mfaStep,
  consentStep,
];
