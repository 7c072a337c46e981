import { z } from 'zod';

export const logResults = ['Success', 'Error'] as const;

/** Who made a change: a signed-in user or a machine-to-machine application. */
export const actorSchema = z.object({
  type: z.enum(['user', 'application', 'system']),
  id: z.string(),
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

/** An audit-log entry (reference API `Log`). */
export const logSchema = z.object({
  id: z.string(),
  key: z.string(),
  payload: logPayloadSchema,
  createdAt: z.number().int(),
});
export type Log = z.infer<typeof logSchema>;
