import type { Edition } from '@gatehouse/schemas';
import { type ConsoleArea, isInEdition, type SidebarItemKey } from '../components/routing/area.ts';
import { apiResourcesArea } from '../pages/api-resources/routes.ts';
import { applicationsArea } from '../pages/applications/routes.ts';
import { auditLogsArea } from '../pages/audit-logs/routes.ts';
import { connectorsArea } from '../pages/connectors/routes.ts';
import { customizeJwtArea } from '../pages/customize-jwt/routes.ts';
import { dashboardArea } from '../pages/dashboard/routes.ts';
import { enterpriseSsoArea } from '../pages/enterprise-sso/routes.ts';
import { getStartedArea } from '../pages/get-started/routes.ts';
import { mfaArea } from '../pages/mfa/routes.ts';
import { organizationTemplateArea } from '../pages/organization-template/routes.ts';
import { organizationsArea } from '../pages/organizations/routes.ts';
import { rolesArea } from '../pages/roles/routes.ts';
import { securityArea } from '../pages/security/routes.ts';
import { signInExperienceArea } from '../pages/sign-in-experience/routes.ts';
import { signingKeysArea } from '../pages/signing-keys/routes.ts';
import { tenantSettingsArea } from '../pages/tenant-settings/routes.ts';
import { usersArea } from '../pages/users/routes.ts';
import { webhooksArea } from '../pages/webhooks/routes.ts';

/** Every admin area of the console. A new area adds its module here; its sidebar item then appears by itself. */
export const consoleAreas: readonly ConsoleArea[] = [
  getStartedArea,
  dashboardArea,
  applicationsArea,
  signInExperienceArea,
  mfaArea,
  securityArea,
  connectorsArea,
  enterpriseSsoArea,
  rolesArea,
  apiResourcesArea,
  organizationTemplateArea,
  usersArea,
  organizationsArea,
  signingKeysArea,
  customizeJwtArea,
  webhooksArea,
  auditLogsArea,
  tenantSettingsArea,
];

export function areasOf(edition: Edition, areas: readonly ConsoleArea[] = consoleAreas): ConsoleArea[] {
  return areas.filter((area) => isInEdition(area, edition));
}

/** The sidebar items that have pages in this edition. */
export function availableSidebarItems(edition: Edition, areas: readonly ConsoleArea[] = consoleAreas) {
  return new Set<SidebarItemKey>(
    areasOf(edition, areas).flatMap((area) => (area.sidebarItem ? [area.sidebarItem] : [])),
  );
}
