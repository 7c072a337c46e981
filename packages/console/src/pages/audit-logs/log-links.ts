import type { LogLinks } from '../../components/AuditLog/log-references.ts';
import { toApiResource } from '../api-resources/links.ts';
import { toApplication } from '../applications/links.ts';
import { toSsoConnector } from '../enterprise-sso/links.ts';
import { toOrganizationRole } from '../organization-template/links.ts';
import { toOrganization } from '../organizations/links.ts';
import { toRole } from '../roles/links.ts';
import { toUser } from '../users/links.ts';
import { toHook } from '../webhooks/links.ts';

/**
 * The pages of what audit-log entries name, for the kit's log views (components/AuditLog) on the audit-logs page and
 * every logs tab: `User` and `Application` for actors, users and applications, and the kinds of entity that have a
 * page, by `payload.entity.type`.
 */
export const logLinks: LogLinks = {
  User: (id) => toUser(id),
  Application: (id) => toApplication(id),
  Role: (id) => toRole(id),
  Organization: (id) => toOrganization(id),
  OrganizationRole: (id) => toOrganizationRole(id),
  Resource: (id) => toApiResource(id),
  Hook: (id) => toHook(id),
  SsoConnector: (id) => toSsoConnector(id),
};
