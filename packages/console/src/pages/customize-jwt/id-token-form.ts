import { type ExtendedIdTokenClaim, extendedIdTokenClaims, type IdTokenConfig } from '@gatehouse/schemas';

/** One checkbox per extended claim; the API takes the list of the checked ones. */
export type IdTokenClaimsForm = Record<ExtendedIdTokenClaim, boolean>;

export function toIdTokenClaimsForm(config: IdTokenConfig): IdTokenClaimsForm {
  const enabled = new Set<string>(config.enabledExtendedClaims);
  return Object.fromEntries(extendedIdTokenClaims.map((claim) => [claim, enabled.has(claim)])) as IdTokenClaimsForm;
}

export function toIdTokenConfig(values: IdTokenClaimsForm): IdTokenConfig {
  return { enabledExtendedClaims: extendedIdTokenClaims.filter((claim) => values[claim]) };
}
