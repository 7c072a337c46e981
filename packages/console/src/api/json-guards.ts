/**
 * Small hand-written checks of JSON, for the modules of the console's first page: zod is 27 kB gzip, more than the
 * first page may spend on it (bench/console-browser.ts), so it loads only with the pages and forms that validate with
 * it. Each guard here mirrors one zod schema and behaves like it: `parse` returns a copy that holds only the known
 * keys, or throws; `safeParse` tells which. json-guards.test.ts holds every guard against its zod schema.
 */

/** What checks an answer: a zod schema of the shared contract, or a guard of this module. */
export type Parser<T> = { parse(value: unknown): T };

export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: TypeError };

export type Guard<T> = Parser<T> & { safeParse(value: unknown): SafeParseResult<T> };

/** Checks one value; `path` names it in the error (as `a.b`). */
export type Check<T> = (value: unknown, path: string) => T;

/** An object that is not an array, as z.object accepts. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object that is not a class instance either, as z.record accepts (zod's isPlainObject). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const maker: unknown = value.constructor;
  if (typeof maker !== 'function') return true;
  const prototype: unknown = maker.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

function fail(path: string, expected: string): never {
  throw new TypeError(`${path || 'value'}: expected ${expected}`);
}

export const string: Check<string> = (value, path) => (typeof value === 'string' ? value : fail(path, 'a string'));

/** A finite number, as z.number(). */
export const number: Check<number> = (value, path) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fail(path, 'a number');

/** A whole number from 0 to Number.MAX_SAFE_INTEGER, as z.number().int().nonnegative(). */
export const count: Check<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fail(path, 'a whole number ≥ 0');

export const boolean: Check<boolean> = (value, path) => (typeof value === 'boolean' ? value : fail(path, 'a boolean'));

/** Any object, its values unchecked, as z.record(z.string(), z.unknown()). */
export const record: Check<Record<string, unknown>> = recordOf((value) => value);

export function oneOf<const V extends readonly string[]>(values: V): Check<V[number]> {
  return (value, path) => values.find((candidate) => candidate === value) ?? fail(path, `one of ${values.join(', ')}`);
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, path) => (value === undefined ? undefined : check(value, path));
}

/** The first check that accepts the value, as z.union. */
export function either<A, B>(first: Check<A>, second: Check<B>): Check<A | B> {
  return (value, path) => {
    try {
      return first(value, path);
    } catch {
      return second(value, path);
    }
  };
}

/** Every value of an object checked, as z.record(z.string(), check): a copy without a `__proto__` key. */
export function recordOf<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, path) => {
    if (!isPlainObject(value)) return fail(path, 'an object');
    const result: Record<string, T> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key !== '__proto__') result[key] = check(item, path ? `${path}.${key}` : key);
    }
    return result;
  };
}

type Shape = Record<string, Check<unknown>>;
type Output<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/**
 * An object with these keys, as z.object: unknown keys are left out of the result, and an optional key that is
 * absent stays absent.
 */
export function object<S extends Shape>(shape: S): Check<Output<S>> {
  return (value, path) => {
    if (!isObject(value)) return fail(path, 'an object');
    const result: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const item = check(value[key], path ? `${path}.${key}` : key);
      if (item !== undefined || key in value) result[key] = item;
    }
    return result as Output<S>;
  };
}

/** Also checks what the value's type cannot say (z.refine). */
export function refine<T>(check: Check<T>, isValid: (value: T) => boolean, expected: string): Check<T> {
  return (value, path) => {
    const checked = check(value, path);
    return isValid(checked) ? checked : fail(path, expected);
  };
}

export function guard<T>(check: Check<T>): Guard<T> {
  return {
    parse: (value) => check(value, ''),
    safeParse(value) {
      try {
        return { success: true, data: check(value, '') };
      } catch (error) {
        return { success: false, error: error instanceof TypeError ? error : new TypeError(String(error)) };
      }
    },
  };
}
