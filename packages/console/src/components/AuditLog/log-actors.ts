import type { Log } from '@gatehouse/schemas';

/** Admin writes name who made them in `actor`; sign-ins and token events put them in `userId` / `applicationId`. */
export function logUserId(log: Log): string | undefined {
  return log.payload.userId ?? (log.payload.actor?.type === 'user' ? log.payload.actor.id : undefined);
}

export function logApplicationId(log: Log): string | undefined {
  return log.payload.applicationId ?? (log.payload.actor?.type === 'application' ? log.payload.actor.id : undefined);
}
