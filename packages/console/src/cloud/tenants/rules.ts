import type { InviteeInvitation, Tenant } from '@gatehouse/schemas';

/**
 * The pure rules of the cloud tenant context (spec §3 default tenant rule, §4 tenant access, §2.4 signed-in index),
 * kept apart from React so each can be tested on its own.
 */

export type CustomData = Record<string, unknown>;

function isRecord(value: unknown): value is CustomData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tenant id an old link or the OSS-style '/' used; spec §4 swaps it for the user's default tenant. */
export const placeholderTenantId = 'default';

/** Spec §3: custom data `defaultTenantId` when it is one of the user's tenants, else the first tenant. */
export function pickDefaultTenant(tenants: readonly Tenant[], customData: unknown): Tenant | undefined {
  const saved = isRecord(customData) ? customData.defaultTenantId : undefined;
  return tenants.find((tenant) => tenant.id === saved) ?? tenants[0];
}

/** Spec §3: onboarding is done only when custom data says `onboarding.isOnboardingDone: true`. */
export function isOnboardingDone(customData: unknown): boolean {
  if (!isRecord(customData)) return false;
  const onboarding = customData.onboarding;
  return isRecord(onboarding) && onboarding.isOnboardingDone === true;
}

/**
 * Spec §2.4 step 2 'onboarding is not done', as the console reads it: the flag is not set and the account belongs
 * to no tenant. Onboarding creates the first tenant; an account that already has one (an accepted invitation, a
 * tenant created elsewhere) has nothing to onboard to, whatever the flag says (issue 26).
 */
export function needsOnboarding(customData: unknown, tenants: readonly Tenant[]): boolean {
  return tenants.length === 0 && !isOnboardingDone(customData);
}

/** The whole custom data to save (PATCH takes all of it) with the onboarding flag set; other keys are kept. */
export function withOnboardingDone(customData: unknown, done: boolean): CustomData {
  const data = isRecord(customData) ? customData : {};
  const onboarding = isRecord(data.onboarding) ? data.onboarding : {};
  return { ...data, onboarding: { ...onboarding, isOnboardingDone: done } };
}

export function withDefaultTenant(customData: unknown, tenantId: string): CustomData {
  return { ...(isRecord(customData) ? customData : {}), defaultTenantId: tenantId };
}

export function savedDefaultTenantId(customData: unknown): string | undefined {
  const saved = isRecord(customData) ? customData.defaultTenantId : undefined;
  return typeof saved === 'string' ? saved : undefined;
}

export type IndexDecision =
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string }
  | { kind: 'invitations'; invitations: InviteeInvitation[] }
  | { kind: 'landing' };

/** Spec §2.4 signed-in index, in order: wait for the user, onboarding, default tenant, invitations, landing. */
export function indexDecision(input: {
  isUserLoading: boolean;
  customData: unknown;
  tenants: readonly Tenant[];
  /** Undefined while they load. */
  pendingInvitations: InviteeInvitation[] | undefined;
}): IndexDecision {
  if (input.isUserLoading) return { kind: 'wait' };
  if (needsOnboarding(input.customData, input.tenants)) return { kind: 'redirect', to: '/onboarding' };
  const tenant = pickDefaultTenant(input.tenants, input.customData);
  if (tenant) return { kind: 'redirect', to: `/${encodeURIComponent(tenant.id)}` };
  if (input.pendingInvitations === undefined) return { kind: 'wait' };
  if (input.pendingInvitations.length > 0) return { kind: 'invitations', invitations: input.pendingInvitations };
  return { kind: 'landing' };
}

export type TenantAccessDecision =
  | { kind: 'allow' }
  /** Unknown tenant: the placeholder goes to the same path in the default tenant, anything else to '/'. */
  | { kind: 'redirect'; to: string }
  /** Spec §4: no scopes in this tenant: drop it locally and go to '/'. */
  | { kind: 'remove' }
  /** The token lacks scopes the member holds: clear every token and sign in again with consent. */
  | { kind: 'sign-in-again' }
  /** The token holds scopes the member lost: clear only this tenant's organization token. */
  | { kind: 'clear-token' };

/** Spec §4 tenant access, for a path under '/{tenantId}'. */
export function tenantAccessDecision(input: {
  tenantId: string;
  /** The path after the tenant segment, e.g. '/users?page=2'. */
  rest: string;
  tenants: readonly Tenant[];
  customData: unknown;
  /** Undefined while loading. */
  memberScopes: readonly string[] | undefined;
  /** The cached organization token's scopes; undefined when no token is cached yet. */
  tokenScopes: readonly string[] | undefined;
}): TenantAccessDecision {
  if (!input.tenants.some((tenant) => tenant.id === input.tenantId)) {
    const fallback = pickDefaultTenant(input.tenants, input.customData);
    if (fallback && input.tenantId === placeholderTenantId) {
      return { kind: 'redirect', to: `/${encodeURIComponent(fallback.id)}${input.rest}` };
    }
    return { kind: 'redirect', to: '/' };
  }
  if (input.memberScopes === undefined) return { kind: 'allow' };
  if (input.memberScopes.length === 0) return { kind: 'remove' };
  if (input.tokenScopes === undefined) return { kind: 'allow' };
  const token = new Set(input.tokenScopes);
  if (input.memberScopes.some((scope) => !token.has(scope))) return { kind: 'sign-in-again' };
  const member = new Set(input.memberScopes);
  if (input.tokenScopes.some((scope) => !member.has(scope))) return { kind: 'clear-token' };
  return { kind: 'allow' };
}
