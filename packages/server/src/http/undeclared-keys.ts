import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';

/**
 * The reference's management API ignores body fields it does not know (read-only ones such as `id`, `tenantId` or
 * `createdAt` included), so its clients PATCH back a whole GET answer, or send fields of a newer version. Gatehouse's
 * schemas refuse undeclared keys (`z.strictObject`: the console's forms and the 'me' and cloud APIs keep that), so the
 * management API drops them before validation instead: every key a strict object of the body's schema does not declare,
 * at any depth the schema describes, is removed; what is left is validated as before. Nothing undeclared is ever
 * stored or acted on, and a wrong value of a declared key is still a 400 (issue 43, docs/conventions.md).
 */

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Wrappers whose value is their inner schema's (optional, nullable, default, readonly, catch, a pipe's input). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 32; depth += 1) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/**
 * Removes from `value`, in place, the keys its strict objects do not declare; whether anything was removed. A union's
 * value is left alone unless the same value with undeclared keys removed fits exactly one of its options where the
 * value as sent fits none.
 */
export function dropUndeclaredKeys(schema: z.ZodType, value: unknown): boolean {
  const def = defOf(unwrap(schema));
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    let dropped = false;
    const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never';
    for (const key of Object.keys(value)) {
      const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
      if (field) dropped = dropUndeclaredKeys(field, value[key]) || dropped;
      else if (strict) {
        delete value[key];
        dropped = true;
      }
    }
    return dropped;
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    let dropped = false;
    for (const item of value) dropped = dropUndeclaredKeys(def.element, item) || dropped;
    return dropped;
  }
  if (def.type === 'record' && def.valueType && isPlainObject(value)) {
    let dropped = false;
    for (const key of Object.keys(value)) dropped = dropUndeclaredKeys(def.valueType, value[key]) || dropped;
    return dropped;
  }
  if (def.type === 'union' && def.options && isPlainObject(value)) {
    if (def.options.some((option) => option.safeParse(value).success)) return false;
    const fitting = def.options.flatMap((option) => {
      const copy = structuredClone(value);
      return dropUndeclaredKeys(option, copy) && option.safeParse(copy).success ? [copy] : [];
    });
    const [only] = fitting;
    if (fitting.length !== 1 || !only) return false;
    for (const key of Object.keys(value)) delete value[key];
    Object.assign(value, only);
    return true;
  }
  return false;
}

const jsonMediaType = /^application\/([\w.-]+\+)?json\b/i;

/** A route middleware that drops the undeclared keys of a JSON body before the route's validator reads it. */
export function undeclaredKeysDropped(schema: z.ZodType): MiddlewareHandler {
  return async (c, next) => {
    if (jsonMediaType.test(c.req.header('content-type') ?? '')) {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        // Malformed JSON: the validator answers it as it always did.
        return next();
      }
      // The validator parses the body text again: hand it the text of what is left.
      // (Hono keeps a body read as a promise of it, though its type names the value.)
      if (dropUndeclaredKeys(schema, body)) {
        (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(JSON.stringify(body));
      }
    }
    return next();
  };
}
