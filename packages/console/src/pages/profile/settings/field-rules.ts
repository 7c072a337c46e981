import { mePatchSchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** The forms hold the shared rules of PATCH me (spec §5); the name has none beyond its length. */
export const nameFormSchema = z.object({ name: mePatchSchema.shape.name.unwrap() });
export const usernameFormSchema = z.object({ username: mePatchSchema.shape.username.unwrap() });

export type FieldProblem = { key: 'required' } | { key: 'too_long'; max: number } | { key: 'invalid' };

/**
 * What a failed check of the shared schema means to the user. Spec §5: an emptied username is 'required field
 * missing'; anything else the username rule refuses is explained by the rule.
 */
export function fieldProblem(issue: { code?: string | undefined; input?: unknown; maximum?: unknown }): FieldProblem {
  if (issue.input === '' || issue.input === undefined) return { key: 'required' };
  if (issue.code === 'too_big') return { key: 'too_long', max: Number(issue.maximum) };
  return { key: 'invalid' };
}

/** The patch a saved name makes: surrounding spaces go, and an empty name removes it. */
export function namePatch(name: string | null): { name: string | null } {
  return { name: name?.trim() || null };
}
