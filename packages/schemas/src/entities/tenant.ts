import { z } from 'zod';
import { organizationInvitationStatuses } from './organization-invitation.ts';
import { invoiceSchema, quotaValueSchema, subscriptionSchema } from './plans.ts';
import { emailSchema } from './user.ts';

/**
 * The cloud edition's tenants (spec §3 tenant, §6 tenant roles and permissions, §7 cloud API). A user's membership
 * and role in tenant X is membership of organization `t-X` in the admin tenant; the tenant roles are that
 * organization's roles and the tenant permissions its organization scopes.
 */

/** Spec §9: regions, in the order the console offers them; EU is the default. */
export const tenantRegions = ['EU', 'US', 'AU'] as const;
export type TenantRegion = (typeof tenantRegions)[number];
export const DEFAULT_TENANT_REGION: TenantRegion = 'EU';

/** Spec §4: tenant types (the create modal's purpose). */
export const tenantTags = ['development', 'production'] as const;
export type TenantTag = (typeof tenantTags)[number];

/** Spec §9: onboarding's name placeholder and the fallback for an empty name there. */
export const DEFAULT_TENANT_NAME = 'My project';
export const TENANT_NAME_MAX_LENGTH = 128;

/** Spec §6: tenant roles (organization roles of `t-X` in the admin tenant). */
export const tenantRoles = ['admin', 'collaborator'] as const;
export type TenantRole = (typeof tenantRoles)[number];

/** Spec §6: tenant permissions (organization scopes of `t-X` in the admin tenant). */
export const tenantPermissions = [
  'read:data',
  'write:data',
  'delete:data',
  'read:member',
  'invite:member',
  'remove:member',
  'update:member:role',
  'manage:tenant',
] as const;
export type TenantPermission = (typeof tenantPermissions)[number];

/** Spec §6: admin holds every tenant permission, collaborator reads and writes data and reads members. */
export const tenantRolePermissions: Readonly<Record<TenantRole, readonly TenantPermission[]>> = {
  admin: tenantPermissions,
  collaborator: ['read:data', 'write:data', 'delete:data', 'read:member'],
};

/** Spec §6: cloud API scopes; every console account of the cloud edition holds the first two. */
export const cloudScopes = [
  'create:tenant',
  'manage:tenant:self',
  'send:sms',
  'send:email',
  'fetch:custom:jwt',
  'report:subscription:updates',
  'manage:affiliate',
  'create:affiliate',
] as const;
export type CloudScope = (typeof cloudScopes)[number];

/** The resource indicator (token audience) of the cloud API (`/api/tenants`, `/api/invitations`, …). */
export const CLOUD_API_RESOURCE = 'https://cloud.gatehouse.internal/api';

/** Spec §6: what the console derives from the member scopes of the current tenant. */
export type MemberPermissionFlags = {
  canInviteMember: boolean;
  canRemoveMember: boolean;
  canUpdateMemberRole: boolean;
  canManageTenant: boolean;
};
export function memberPermissionFlags(scopes: readonly string[]): MemberPermissionFlags {
  const held = new Set(scopes);
  return {
    canInviteMember: held.has('invite:member'),
    canRemoveMember: held.has('remove:member'),
    canUpdateMemberRole: held.has('update:member:role'),
    canManageTenant: held.has('manage:tenant'),
  };
}

/** Required by the management API of a tenant for a request method, when called with an organization token. */
export function dataPermissionOf(method: string): TenantPermission {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS') return 'read:data';
  if (upper === 'DELETE') return 'delete:data';
  return 'write:data';
}

export const tenantIdSchema = z.string().regex(/^[0-9a-z]{1,21}$/);

export const tenantNameSchema = z.string().trim().min(1).max(TENANT_NAME_MAX_LENGTH);

/** Spec §3 tenant, as `GET /api/tenants` lists it for the signed-in user. */
export const tenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  tag: z.enum(tenantTags),
  regionName: z.enum(tenantRegions),
  /** The tenant's management API resource indicator. */
  indicator: z.string(),
  /** The admin-tenant organization standing for the tenant (`t-{id}`). */
  organizationId: z.string(),
  /** Plan (SKU) id: the subscription's plan. */
  planId: z.string(),
  /** Spec §3: the subscription, the period's MAU and token usage with their limits (null: unlimited), open invoices. */
  subscription: subscriptionSchema,
  usage: z.object({ activeUsers: z.number().int().nonnegative(), tokenUsage: z.number().int().nonnegative() }),
  quota: z.object({ mauLimit: quotaValueSchema, tokenLimit: quotaValueSchema }),
  openInvoices: z.array(invoiceSchema),
  isSuspended: z.boolean(),
  /** The signed-in user's role in the tenant. */
  role: z.enum(tenantRoles),
  createdAt: z.number().int(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** `POST /api/tenants` (spec §3 tenant creation form; collaborator emails are invited separately). */
export const tenantCreateSchema = z.strictObject({
  name: tenantNameSchema,
  regionName: z.enum(tenantRegions).default(DEFAULT_TENANT_REGION),
  tag: z.enum(tenantTags).default('development'),
});
export type TenantCreate = z.input<typeof tenantCreateSchema>;

/** `PATCH /api/tenants/{id}`: the settings tab renames; the tag is fixed at creation (it decides the plan). */
export const tenantUpdateSchema = z.strictObject({ name: tenantNameSchema });
export type TenantUpdate = z.infer<typeof tenantUpdateSchema>;

/** `GET /api/tenants/{id}/members`: the tenant's members with their role. */
export const tenantMemberSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  primaryEmail: z.string().nullable(),
  avatar: z.string().nullable(),
  role: z.enum(tenantRoles),
});
export type TenantMember = z.infer<typeof tenantMemberSchema>;

/** `PUT /api/tenants/{id}/members/{userId}/roles`. */
export const tenantMemberRoleUpdateSchema = z.strictObject({ roleName: z.enum(tenantRoles) });
export type TenantMemberRoleUpdate = z.infer<typeof tenantMemberRoleUpdateSchema>;

/** `GET /api/tenants/{id}/members/{userId}/scopes` items (spec §7: a list of items with name). */
export const memberScopeSchema = z.object({ name: z.string() });
export type MemberScope = z.infer<typeof memberScopeSchema>;

/** Spec §7: the most invitees one request may name. */
export const MAX_INVITEES_PER_REQUEST = 20;

/** `POST /api/tenants/{id}/invitations` (spec §7: invitee emails and the role they get). */
export const tenantInvitationCreateSchema = z.strictObject({
  invitee: z.union([emailSchema, z.array(emailSchema).min(1).max(MAX_INVITEES_PER_REQUEST)]),
  roleName: z.enum(tenantRoles),
});
export type TenantInvitationCreate = z.infer<typeof tenantInvitationCreateSchema>;

/** A tenant invitation as the tenant's members see it (invitations tab). */
export const tenantInvitationSchema = z.object({
  id: z.string(),
  invitee: z.string(),
  status: z.enum(organizationInvitationStatuses),
  role: z.enum(tenantRoles),
  inviterId: z.string().nullable(),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type TenantInvitation = z.infer<typeof tenantInvitationSchema>;

/**
 * `GET /api/tenants/{id}/invitation-delivery`: whether the tenant's invitations are emailed (issue 40, item 11). When
 * `email` is false an invitation is still created, but nobody is told: its link (`/console/accept/{id}`) is shared by
 * hand.
 */
export const tenantInvitationDeliverySchema = z.object({ email: z.boolean() });
export type TenantInvitationDelivery = z.infer<typeof tenantInvitationDeliverySchema>;

/** Spec §3: an invitation as the invitee sees it (`GET /api/invitations`, `GET /api/invitations/{id}`). */
export const inviteeInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  tenantTag: z.enum(tenantTags),
  status: z.enum(organizationInvitationStatuses),
  role: z.enum(tenantRoles),
  expiresAt: z.number().int(),
});
export type InviteeInvitation = z.infer<typeof inviteeInvitationSchema>;

/** `PATCH /api/invitations/{id}/status` (spec §4: Pending becomes Accepted). */
export const invitationStatusUpdateSchema = z.strictObject({ status: z.literal('Accepted') });

/** `GET /api/.well-known/endpoints/{tenantId}`: `user` is the tenant's endpoint URL (its issuer sits below it). */
export const tenantEndpointsSchema = z.object({ user: z.string() });

/**
 * Spec §3 admin-console config (`GET/PATCH {management API}/configs/admin-console`), in the reference's shape (its
 * `adminConsoleDataGuard`): the console's flags `signInExperienceCustomized` and `organizationCreated` (false until
 * set), the development-tenant migration record and which charge notices were seen. The record's `isPaidTenant` and
 * `tag` are the reference's (it requires them); Gatehouse's notice needs only `readAt` (spec §3), so they are optional.
 */
const migrationNotificationSchema = z.strictObject({
  isPaidTenant: z.boolean().optional(),
  tag: z.string().max(64).optional(),
  readAt: z.number().int().nonnegative().optional(),
});
const chargeNotificationSchema = z.strictObject({
  token: z.boolean().optional(),
  apiResource: z.boolean().optional(),
  machineToMachineApp: z.boolean().optional(),
  tenantMember: z.boolean().optional(),
});
export const adminConsoleConfigSchema = z.object({
  signInExperienceCustomized: z.boolean(),
  organizationCreated: z.boolean(),
  developmentTenantMigrationNotification: migrationNotificationSchema.optional(),
  checkedChargeNotification: chargeNotificationSchema.optional(),
});
export type AdminConsoleConfig = z.infer<typeof adminConsoleConfigSchema>;
/** The reference's defaults, answered until a field is set. */
export const defaultAdminConsoleConfig: AdminConsoleConfig = {
  signInExperienceCustomized: false,
  organizationCreated: false,
};
/** Any subset of the config's fields; each given one replaces the stored one (the reference merges the top level). */
export const adminConsoleConfigPatchSchema = z.strictObject({
  signInExperienceCustomized: z.boolean().optional(),
  organizationCreated: z.boolean().optional(),
  developmentTenantMigrationNotification: migrationNotificationSchema.optional(),
  checkedChargeNotification: chargeNotificationSchema.optional(),
});
export type AdminConsoleConfigPatch = z.infer<typeof adminConsoleConfigPatchSchema>;
