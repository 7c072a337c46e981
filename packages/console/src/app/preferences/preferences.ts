import {
  type AppearanceMode,
  appearanceModes,
  type ConsolePreferences,
  consolePreferencesKey,
  type Language,
  languages,
} from '@gatehouse/schemas';
import { boolean, type Check, guard, object, oneOf, optional } from '../../api/json-guards.ts';

export type CustomData = Record<string, unknown>;

/** The preferences that are flags ('notice acknowledged'): all of consolePreferencesSchema's but these two. */
type FlagKey = Exclude<keyof ConsolePreferences, 'language' | 'appearanceMode'>;
const flag = optional(boolean);
const flags = {
  experienceNoticeConfirmed: flag,
  connectorSieNoticeConfirmed: flag,
  managementApiAcknowledged: flag,
  roleWithManagementApiAccessNotificationAcknowledged: flag,
  m2mRoleNotificationAcknowledged: flag,
  mfaUpsellNoticeAcknowledged: flag,
  m2mUpsellNoticeAcknowledged: flag,
  apiResourceUpsellNoticeAcknowledged: flag,
  organizationUpsellNoticeAcknowledged: flag,
  tenantMembersUpsellNoticeAcknowledged: flag,
  enterpriseSsoUpsellNoticeAcknowledged: flag,
  addOnChangesInCurrentCycleNoticeConfirmed: flag,
} satisfies Record<FlagKey, Check<boolean | undefined>>;

/**
 * consolePreferencesSchema of the shared contract, without zod: the shell reads the preferences on every page
 * (api/json-guards.ts). json-guards.test.ts holds the two alike.
 */
export const consolePreferencesGuard = guard<ConsolePreferences>(
  object({ language: optional(oneOf(languages)), appearanceMode: optional(oneOf(appearanceModes)), ...flags }),
);

function isRecord(value: unknown): value is CustomData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Spec §3/§5: the console's preferences from the user's custom data, validated. Data that does not match the schema
 * counts as no preferences at all, so the defaults apply: the language and appearance this browser already uses
 * (stored locally, else detected, else en and system).
 */
export function readConsolePreferences(customData: unknown): ConsolePreferences {
  if (!isRecord(customData)) return {};
  const parsed = consolePreferencesGuard.safeParse(customData[consolePreferencesKey] ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * The whole custom data to save (PATCH me/custom-data takes all of it) with the preferences changed. Other keys of
 * the custom data and unknown preference keys (written by a newer console) are kept; preferences that failed
 * validation are replaced.
 */
export function withConsolePreferences(customData: unknown, change: Partial<ConsolePreferences>): CustomData {
  const data = isRecord(customData) ? customData : {};
  const current = data[consolePreferencesKey];
  const kept = isRecord(current) && consolePreferencesGuard.safeParse(current).success ? current : {};
  return { ...data, [consolePreferencesKey]: { ...kept, ...change } };
}

export type LocalPreferences = { language: Language; appearanceMode: AppearanceMode };

/**
 * What signing in should change locally: the account's saved choices win over this browser's, so the console looks
 * the same on every device; anything the account has not saved keeps the local value.
 */
export function preferencesToApply(saved: ConsolePreferences, local: LocalPreferences): Partial<LocalPreferences> {
  const changes: Partial<LocalPreferences> = {};
  if (saved.language && saved.language !== local.language) changes.language = saved.language;
  if (saved.appearanceMode && saved.appearanceMode !== local.appearanceMode) {
    changes.appearanceMode = saved.appearanceMode;
  }
  return changes;
}
