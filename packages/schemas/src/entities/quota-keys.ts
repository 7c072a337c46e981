// Zod-free (plans.ts re-exports these), so the console's first page (its quota-refusal check) knows the quota
// fields without downloading zod and the plan schemas.

/** Spec §3: every quota field. */
export const quotaKeys = [
  'mauLimit',
  'tokenLimit',
  'applicationsLimit',
  'machineToMachineLimit',
  'thirdPartyApplicationsLimit',
  'resourcesLimit',
  'scopesPerResourceLimit',
  'socialConnectorsLimit',
  'userRolesLimit',
  'machineToMachineRolesLimit',
  'scopesPerRoleLimit',
  'hooksLimit',
  'auditLogsRetentionDays',
  'mfaEnabled',
  'organizationsLimit',
  'enterpriseSsoLimit',
  'tenantMembersLimit',
  'customJwtEnabled',
  'subjectTokenEnabled',
  'bringYourUiEnabled',
  'idpInitiatedSsoEnabled',
  'samlApplicationsLimit',
  'ticketSupportResponseTime',
] as const;
export type QuotaKey = (typeof quotaKeys)[number];
