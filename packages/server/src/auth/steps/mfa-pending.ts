import type { InteractionResults } from 'oidc-provider';
import type { FirstFactor } from '../../services/sign-in-completion.ts';
import type { OpenInteraction } from '../interaction-context.ts';

/**
 * While the second step is open, who passed the first is kept in the interaction itself (its `result`, stored
 * server-side and reached only with the interaction's cookie), never in the browser; the key being set up and the new
 * backup codes are sealed there.
 */

const PENDING = 'gatehouseMfa';

export type Pending = {
  /** What the first factor proved; the sign-in is recorded with it when the second step ends (completeSignIn). */
  first: FirstFactor;
  /** `offer`: a passkey is offered after a password sign-in (steps/passkey.ts). */
  stage: 'verify' | 'enroll' | 'codes' | 'offer';
  /** verify: the factors the user holds. */
  totp?: boolean;
  backupCode?: boolean;
  webauthn?: boolean;
  /** enroll: whether the user may skip it. */
  required?: boolean;
  /** enroll: what can be set up (absent in interactions opened before passkeys: an authenticator app). */
  setup?: { totp: boolean; passkey: boolean };
  /** The challenge of the passkey request the page shows (verify, enroll, offer); used once. */
  challenge?: string;
  /** enroll: the new authenticator key, sealed. */
  secret?: string;
  /** codes: the new backup codes, sealed, shown again on a reload until the user says they saved them. */
  codes?: string;
  /** codes: what was set up with them (an authenticator app unless said), and the passkey's `amr`. */
  boundWith?: 'TotpBound' | 'WebAuthnBound';
  amr?: string[];
};

export function pendingOf(open: OpenInteraction): Pending | undefined {
  const value = (open.details.result as Record<string, unknown> | undefined)?.[PENDING];
  if (!value || typeof value !== 'object') return undefined;
  const pending = value as Partial<Pending>;
  return typeof pending.first?.userId === 'string' &&
    ['verify', 'enroll', 'codes', 'offer'].includes(String(pending.stage))
    ? (pending as Pending)
    : undefined;
}

export async function savePending(open: OpenInteraction, pending: Pending): Promise<void> {
  const stored = await open.provider.Interaction.find(open.details.uid);
  if (!stored) throw new Error('the interaction is gone');
  stored.result = { [PENDING]: pending } as InteractionResults;
  await stored.persist();
}

/** Forgets the first factor ("use another account"): the interaction is back at its first screen. */
export async function clearPending(open: OpenInteraction): Promise<void> {
  const stored = await open.provider.Interaction.find(open.details.uid);
  if (!stored) return;
  stored.result = undefined;
  await stored.persist();
}
