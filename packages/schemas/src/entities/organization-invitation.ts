import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { idSchema, userIdSchema } from '../ids.ts';
import { organizationIdSchema } from './organization.ts';
import { idSetSchema, namedRefSchema } from './organization-role.ts';
import { emailSchema } from './user.ts';

/** Spec §4: Pending becomes Accepted or Revoked; a Pending invitation past its expiry reads as Expired. */
export const organizationInvitationStatuses = ['Pending', 'Accepted', 'Expired', 'Revoked'] as const;
export type OrganizationInvitationStatus = (typeof organizationInvitationStatuses)[number];

/** The longest an invitation may stay open. */
export const MAX_INVITATION_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export const organizationInvitationSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  inviterId: z.string().nullable(),
  invitee: z.string(),
  acceptedUserId: z.string().nullable(),
  organizationId: organizationIdSchema,
  status: z.enum(organizationInvitationStatuses),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  expiresAt: z.number().int(),
  organizationRoles: z.array(namedRefSchema),
});
export type OrganizationInvitation = z.infer<typeof organizationInvitationSchema>;

/**
 * Values for the invitation email's template (reference `messagePayload`), e.g. `link` (where the
 * invitee accepts) and `locale`. Strings only; a `link` must be an http(s) URL.
 */
export const invitationMessagePayloadSchema = z
  .record(z.string().min(1).max(64), z.string().max(2048))
  .refine((payload) => Object.keys(payload).length <= 32, 'at most 32 values')
  .refine((payload) => payload.link === undefined || /^https?:\/\/\S+$/i.test(payload.link), {
    message: 'link must be an http(s) URL',
    path: ['link'],
  });
export type InvitationMessagePayload = z.infer<typeof invitationMessagePayloadSchema>;

export const organizationInvitationCreateSchema = z.strictObject({
  organizationId: organizationIdSchema,
  invitee: emailSchema,
  /** The tenant's user who invites (optional: an admin's invitation has no inviter among the users). */
  inviterId: userIdSchema.optional(),
  /** Organization roles (type User) the invitee gets on acceptance. */
  organizationRoleIds: idSetSchema(idSchema).optional(),
  /** Milliseconds since the epoch; in the future and at most a year ahead. */
  expiresAt: z
    .number()
    .int()
    .refine((value) => value > Date.now(), 'must be in the future')
    .refine((value) => value <= Date.now() + MAX_INVITATION_LIFETIME_MS, 'must be at most a year ahead'),
  /** Send the invitation email with these template values; `false` or absent sends none (reference). */
  messagePayload: z.union([invitationMessagePayloadSchema, z.literal(false)]).optional(),
});
export type OrganizationInvitationCreate = z.infer<typeof organizationInvitationCreateSchema>;

/** PUT /organization-invitations/{id}/status: accept (for this user) or revoke a pending invitation. */
export const organizationInvitationStatusSchema = z
  .strictObject({
    status: z.enum(['Accepted', 'Revoked']),
    acceptedUserId: userIdSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === 'Accepted' && !body.acceptedUserId) {
      ctx.addIssue({ code: 'custom', path: ['acceptedUserId'], message: 'Accepting needs acceptedUserId.' });
    }
    if (body.status === 'Revoked' && body.acceptedUserId) {
      ctx.addIssue({ code: 'custom', path: ['acceptedUserId'], message: 'Only an accepted invitation has one.' });
    }
  });
export type OrganizationInvitationStatusChange = z.infer<typeof organizationInvitationStatusSchema>;

export const organizationInvitationListQuerySchema = paginationQuerySchema.extend({
  organizationId: organizationIdSchema.optional(),
  inviterId: userIdSchema.optional(),
  invitee: z.string().max(128).optional().meta({ description: 'Exact email, any case.' }),
  status: z.enum(organizationInvitationStatuses).optional(),
});
