import { z } from 'zod';
import { idSchema, userIdSchema } from '../ids.ts';
import { applicationSchema } from './application.ts';
import { customDataSchema } from './me.ts';
import { brandingSchema, colorSchema, customCssSchema } from './organization-branding.ts';
import { namedRefSchema } from './organization-role.ts';
import { keywordQuerySchema } from './organization-scope.ts';
import { idListSchema } from './role.ts';
import { userSchema } from './user.ts';

/**
 * Organization ids are up to 32 characters (not 21): the cloud edition names the admin tenant's
 * organization of tenant X `t-X` (spec §6), which must fit for any tenant id.
 */
export const organizationIdSchema = z.string().min(1).max(32);

/** Spec §5: organization name up to 128 characters, description up to 256. */
export const organizationNameSchema = z.string().trim().min(1).max(128);
export const organizationDescriptionSchema = z.string().max(256);

export const organizationSchema = z.object({
  tenantId: z.string(),
  id: organizationIdSchema,
  name: z.string(),
  description: z.string().nullable(),
  customData: z.record(z.string(), z.unknown()),
  isMfaRequired: z.boolean(),
  color: z.record(z.string(), z.unknown()),
  branding: z.record(z.string(), z.unknown()),
  customCss: z.string().nullable(),
  createdAt: z.number().int(),
});
export type Organization = z.infer<typeof organizationSchema>;

const organizationFields = {
  description: organizationDescriptionSchema.nullable().optional(),
  customData: customDataSchema.optional(),
  /** Members must use MFA to get tokens for this organization. */
  isMfaRequired: z.boolean().optional(),
  color: colorSchema.optional(),
  branding: brandingSchema.optional(),
  customCss: customCssSchema.nullable().optional(),
};

export const organizationCreateSchema = z.strictObject({ name: organizationNameSchema, ...organizationFields });
export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;

/** Each given field replaces the stored one (customData, color and branding whole). */
export const organizationPatchSchema = z.strictObject({
  name: organizationNameSchema.optional(),
  ...organizationFields,
});
export type OrganizationPatch = z.infer<typeof organizationPatchSchema>;

/** A member as lists show them next to an organization (name and picture). */
export const featuredUserSchema = z.object({
  id: userIdSchema,
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});

/** GET /organizations with `showFeatured`: the member count and up to 3 members per organization. */
export const organizationListItemSchema = organizationSchema.extend({
  usersCount: z.number().int().optional(),
  featuredUsers: z.array(featuredUserSchema).optional(),
});
export type OrganizationListItem = z.infer<typeof organizationListItemSchema>;

const flag = z.enum(['1', '0', 'true', 'false']).transform((value) => value === '1' || value === 'true');

export const organizationListQuerySchema = keywordQuerySchema.extend({
  showFeatured: flag.optional().meta({ description: 'Add usersCount and up to 3 featuredUsers.' }),
});

/** An organization as seen from one of its members or applications: with the roles held there. */
export const organizationWithRolesSchema = organizationSchema.extend({ organizationRoles: z.array(namedRefSchema) });
export type OrganizationWithRoles = z.infer<typeof organizationWithRolesSchema>;

/** A member of an organization: the user (no credentials) and the organization roles held there. */
export const organizationMemberSchema = userSchema.extend({ organizationRoles: z.array(namedRefSchema) });
export type OrganizationMember = z.infer<typeof organizationMemberSchema>;

export const organizationMemberListQuerySchema = keywordQuerySchema.extend({
  organizationRoleId: idSchema.optional().meta({ description: 'Only members holding this organization role.' }),
});

/**
 * The ids of a relation POST or PUT as the reference takes them: 1 (POST) or 0 (PUT) to 100 of them, an id repeated
 * counts once, and any id-like text (an id that cannot exist is the 422 of an unknown one, not a 400).
 */
const relationIdList = (min: number) => z.array(z.string().min(1).max(256)).min(min).max(100);

export const organizationUsersAddSchema = z.strictObject({ userIds: relationIdList(1) });
/** POST /organizations/{id}/users answers the user ids of the request (reference). */
export const organizationUsersAddedSchema = z.object({ userIds: z.array(z.string()) });
export const organizationUsersReplaceSchema = z.strictObject({ userIds: relationIdList(0) });

/** Roles given to several members at once (roles a member already holds stay as they are). */
export const organizationUsersRolesAssignSchema = z.strictObject({
  userIds: idListSchema(userIdSchema),
  organizationRoleIds: idListSchema(idSchema),
});

const roleNameList = z.array(z.string().min(1).max(128)).max(100);

/**
 * A member's roles by id and/or by name, both at once too (the reference's client sends both, one of them often
 * empty); each list may be empty or absent, and repeats count once.
 */
export const organizationMemberRolesAssignSchema = z.strictObject({
  organizationRoleIds: relationIdList(0).optional(),
  organizationRoleNames: roleNameList.optional(),
});
/** POST …/users/{userId}/roles answers the ids of the roles the request named, names resolved (reference). */
export const organizationMemberRolesAddedSchema = z.object({ organizationRoleIds: z.array(z.string()) });
export const organizationMemberRolesReplaceSchema = organizationMemberRolesAssignSchema;

/** A machine-to-machine application of an organization with the organization roles it holds there. */
export const organizationApplicationSchema = applicationSchema.extend({ organizationRoles: z.array(namedRefSchema) });
export type OrganizationApplication = z.infer<typeof organizationApplicationSchema>;

export const organizationApplicationsAddSchema = z.strictObject({ applicationIds: relationIdList(1) });
export const organizationApplicationsReplaceSchema = z.strictObject({ applicationIds: relationIdList(0) });
export const organizationApplicationsRolesAssignSchema = z.strictObject({
  applicationIds: idListSchema(idSchema),
  organizationRoleIds: idListSchema(idSchema),
});
export const organizationRoleIdsAssignSchema = z.strictObject({ organizationRoleIds: relationIdList(1) });
export const organizationRoleIdsReplaceSchema = z.strictObject({ organizationRoleIds: relationIdList(0) });

/**
 * A just-in-time email domain: a host name such as `example.com`, stored lower-case. A leading
 * `@` is dropped, so `@Example.com` is the same domain.
 */
const domainLabel = '[a-z\\d](?:[a-z\\d-]{0,61}[a-z\\d])?';
export const emailDomainRegex = new RegExp(`^${domainLabel}(?:\\.${domainLabel})+$`);
export const emailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(z.string().max(253).regex(emailDomainRegex, 'must be a domain name such as example.com'));

export const jitEmailDomainSchema = z.object({
  organizationId: organizationIdSchema,
  emailDomain: z.string(),
});
export type JitEmailDomain = z.infer<typeof jitEmailDomainSchema>;
export const jitEmailDomainCreateSchema = z.strictObject({ emailDomain: emailDomainSchema });
export const jitEmailDomainsReplaceSchema = z.strictObject({
  emailDomains: z
    .array(emailDomainSchema)
    .max(100)
    .refine((domains) => new Set(domains).size === domains.length, 'must not repeat a domain'),
});
