import { z } from 'zod';

export const logResults = ['Success', 'Error'] as const;

/**
 * Who made a change: a signed-in user, a machine-to-machine application, Gatehouse itself (`system`), or a SCIM
 * provisioning connection (`scim`: its id, and its name then in `name`; docs/areas/scim.md).
 */
export const actorSchema = z.object({
  type: z.enum(['user', 'application', 'system', 'scim']),
  id: z.string(),
  /**
   * The name the actor went by then, when the request said: a console admin's, from their access token (the tenant
   * cannot read the admin tenant's users, so it is recorded with the write).
   */
  name: z.string().optional(),
});
export type Actor = z.infer<typeof actorSchema>;

export const logPayloadSchema = z
  .object({
    result: z.enum(logResults),
    userId: z.string().optional(),
    applicationId: z.string().optional(),
    ip: z.string().optional(),
    userAgent: z.string().optional(),
    requestId: z.string().optional(),
    actor: actorSchema.optional(),
    entity: z.object({ type: z.string(), id: z.string() }).optional(),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .catchall(z.unknown());
export type LogPayload = z.infer<typeof logPayloadSchema>;

/**
 * What an entry's references are called now (a Gatehouse addition beside the reference's fields, which stay as
 * recorded): `actor` names `payload.actor`, `user` `payload.userId`, `application` `payload.applicationId` and
 * `entity` `payload.entity`. The server reads them from the tenant when it answers (one statement per page). A
 * reference the tenant does not hold has no name here: deleted since, or a console admin, who is a user of the admin
 * tenant. So a name also says the thing still exists in the tenant.
 */
export const logNamesSchema = z.object({
  actor: z.string().optional(),
  user: z.string().optional(),
  application: z.string().optional(),
  entity: z.string().optional(),
});
export type LogNames = z.infer<typeof logNamesSchema>;

/** An audit-log entry (reference API `Log`), plus `names` when any reference has one. */
export const logSchema = z.object({
  id: z.string(),
  key: z.string(),
  payload: logPayloadSchema,
  createdAt: z.number().int(),
  names: logNamesSchema.optional(),
});
export type Log = z.infer<typeof logSchema>;
