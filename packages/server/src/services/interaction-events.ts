import type { HookEvent } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { applications, outbox, type users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { toUser } from './users.ts';

/** The sign-in flows' webhook events and the reference product's `interactionEvent` names for them. */
const interactionEventNames = {
  PostRegister: 'Register',
  PostSignIn: 'SignIn',
  PostResetPassword: 'ForgotPassword',
} as const satisfies Partial<Record<HookEvent, string>>;
export type InteractionHookEvent = keyof typeof interactionEventNames;

export type InteractionMeta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
};

/**
 * The data of a sign-in flow's webhook, shaped like the reference product's interaction hooks: which
 * flow, the user (API shape, never the password hash), the application they used (id, name, type, or
 * only its id for a built-in client such as the console), and the request's IP and user agent.
 */
export async function interactionEventData(
  tenant: TenantDb,
  event: InteractionHookEvent,
  user: typeof users.$inferSelect,
  meta: InteractionMeta,
): Promise<Record<string, unknown>> {
  const app = meta.applicationId
    ? await tenant.findOne(applications, eq(applications.id, meta.applicationId))
    : undefined;
  return {
    interactionEvent: interactionEventNames[event],
    userId: user.id,
    user: toUser(user),
    application: meta.applicationId
      ? app
        ? { id: app.id, name: app.name, type: app.type, description: app.description }
        : { id: meta.applicationId }
      : null,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent ?? null,
  };
}

/**
 * Appends a sign-in flow's event to the outbox, in the caller's transaction when it has one, in the same
 * envelope the write path uses (the delivery worker reads `data`, `actor` and `createdAt`). The actor is
 * the user acting on their own account.
 */
export async function queueInteractionEvent(
  tenant: TenantDb,
  event: InteractionHookEvent,
  user: typeof users.$inferSelect,
  meta: InteractionMeta,
): Promise<void> {
  const data = await interactionEventData(tenant, event, user, meta);
  await tenant.insert(outbox, {
    event,
    payload: { event, data, actor: { type: 'user', id: user.id }, createdAt: Date.now() },
  });
}
