import { and, or, type SQL } from 'drizzle-orm';

/**
 * `a AND b AND …` as the SQL it is whenever one condition is given. Drizzle's `and` answers `SQL | undefined`
 * for the empty case, which led to `as SQL` casts everywhere; this one throws instead of matching everything
 * (an empty condition list is a bug in the caller, never "no filter").
 */
export function allOf(...conditions: (SQL | undefined)[]): SQL {
  const joined = and(...conditions);
  if (!joined) throw new Error('allOf() needs at least one condition');
  return joined;
}

/** `a OR b OR …`; throws without a condition, as {@link allOf} does. */
export function anyOf(...conditions: (SQL | undefined)[]): SQL {
  const joined = or(...conditions);
  if (!joined) throw new Error('anyOf() needs at least one condition');
  return joined;
}
