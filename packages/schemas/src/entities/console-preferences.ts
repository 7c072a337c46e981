import { z } from 'zod';
import { languages } from '../constants.ts';
import { appearanceModes, consolePreferencesKey } from './console-preference-keys.ts';

export { type AppearanceMode, appearanceModes, consolePreferencesKey } from './console-preference-keys.ts';

/**
 * Spec §3: language, appearance and the 'notice acknowledged' flags. Every field is optional, so a flag that a newer
 * console writes never makes an older one discard the rest. The flag names follow the reference product's, so
 * preferences written by either console read the same.
 */
export const consolePreferencesSchema = z.object({
  language: z.enum(languages).optional(),
  appearanceMode: z.enum(appearanceModes).optional(),
  experienceNoticeConfirmed: z.boolean().optional(),
  connectorSieNoticeConfirmed: z.boolean().optional(),
  managementApiAcknowledged: z.boolean().optional(),
  roleWithManagementApiAccessNotificationAcknowledged: z.boolean().optional(),
  m2mRoleNotificationAcknowledged: z.boolean().optional(),
  mfaUpsellNoticeAcknowledged: z.boolean().optional(),
  m2mUpsellNoticeAcknowledged: z.boolean().optional(),
  apiResourceUpsellNoticeAcknowledged: z.boolean().optional(),
  organizationUpsellNoticeAcknowledged: z.boolean().optional(),
  tenantMembersUpsellNoticeAcknowledged: z.boolean().optional(),
  enterpriseSsoUpsellNoticeAcknowledged: z.boolean().optional(),
  addOnChangesInCurrentCycleNoticeConfirmed: z.boolean().optional(),
});
export type ConsolePreferences = z.infer<typeof consolePreferencesSchema>;

/** Spec §3: the parts of a console user's custom data the console reads; other keys belong to others. */
export const consoleCustomDataSchema = z.object({
  [consolePreferencesKey]: consolePreferencesSchema.optional(),
  defaultTenantId: z.string().optional(),
  onboarding: z.object({ isOnboardingDone: z.boolean().optional() }).optional(),
});
export type ConsoleCustomData = z.infer<typeof consoleCustomDataSchema>;
