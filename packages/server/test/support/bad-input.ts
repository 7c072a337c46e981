import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs } from '../../src/db/tables.ts';
import { createTestApp, type TestApp } from './app.ts';
import { ownTenant } from './scenarios.ts';

// Issue 23: property-based bad input. Every write route of the management API, read from the OpenAPI document the
// server generates, gets generated bodies built from its own field names with hostile values (NUL, lone surrogates,
// huge strings, deep nesting, long arrays, wrong types). Each answer must be a 4xx with `{code, message}` or a
// success, never a 5xx, and a refused body writes nothing (the audit log grows only by the successes).
//
// The routes are split into shards, one test file each (bad-input-*.property.test.ts), so the suite's two workers
// share them. Each run draws new bodies (fast-check's seed changes every run and is printed on a failure).

/**
 * Bodies per route and run: 60 by default, so a CI run (both backends) sends each route 120 new bodies; set
 * BAD_INPUT_RUNS for a deeper run by hand (docs/testing.md).
 */
const RUNS_PER_ROUTE = Number(process.env.BAD_INPUT_RUNS ?? 60);

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Operation = { method: string; path: string; url: string; schema: Schema | undefined };

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', 'a\u0000b', '\u0000', '\ud800', 'x\udfff', '%00', '../../etc/passwd', '<script>x</script>'),
  fc.constantFrom('x'.repeat(10_000), 'ü'.repeat(300)),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
  fc.constant(Array.from({ length: 2_000 }, (_, i) => `id${i}`)),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxKeys: 4 }),
  fc.nat({ max: 200 }).map((depth) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = { nested: value };
    return value;
  }),
);

/** Hostile strings that pass a schema's length rules: what reaches the service and the database. */
const hostileText = fc.constantFrom(
  'a\u0000b',
  'x\ud800y',
  'z\udfff',
  '%00',
  '<img src=x onerror=1>',
  "'; drop table users;--",
);

/**
 * Values that satisfy the route's JSON schema (so they get past validation into the services and the database),
 * with hostile text mixed into every string: the bodies most likely to find a 5xx behind the edge.
 */
function valid(
  schema: Schema | undefined,
  resolve: (s: Schema | undefined) => Schema | undefined,
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  if (!resolved || depth > 4) return fc.constant(null);
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((variant) => valid(variant, resolve, depth + 1)));
  if (resolved.enum?.length) return fc.constantFrom(...resolved.enum);
  const type = Array.isArray(resolved.type) ? resolved.type.find((kind) => kind !== 'null') : resolved.type;
  switch (type) {
    case 'string': {
      const min = resolved.minLength ?? 0;
      const max = Math.min(resolved.maxLength ?? 64, 64);
      if (resolved.format === 'uri' || resolved.format === 'url') return fc.webUrl();
      if (resolved.format === 'email') return fc.emailAddress();
      return fc.oneof(
        fc.string({ minLength: min, maxLength: Math.max(min, max) }),
        hostileText.filter((text) => text.length >= min && text.length <= Math.max(min, max)),
      );
    }
    case 'integer':
      return fc.integer({ min: resolved.minimum ?? -1_000, max: resolved.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: resolved.minimum ?? -1_000, max: resolved.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valid(resolved.items, resolve, depth + 1), { maxLength: 4 });
    case 'object': {
      const properties = Object.entries(resolved.properties ?? {});
      if (!properties.length) return fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 4 });
      const required = new Set(resolved.required ?? []);
      return fc.record(
        Object.fromEntries(properties.map(([name, property]) => [name, valid(property, resolve, depth + 1)])),
        { requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)) },
      );
    }
    default:
      return nasty;
  }
}

/** Mostly schema-valid bodies with hostile strings inside; some with a hostile value in one field; some not objects. */
const bodyFor = (schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema | undefined) => {
  const fields = Object.keys(resolve(schema)?.properties ?? {});
  return fc.oneof(
    { weight: 6, arbitrary: valid(schema, resolve) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid(schema, resolve), fc.constantFrom(...fields, 'extra'), nasty)
        .map(([body, field, value]) =>
          body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [field]: value } : body,
        ),
    },
    { weight: 1, arbitrary: nasty },
  );
};

/** Registers the property test for the routes of shard `shard` (0-based) of `shards`: the nth route goes to shard n mod shards. */
export function badInputShard(shard: number, shards: number): void {
  let t: TestApp;
  let operations: Operation[];
  let resolve: (schema: Schema | undefined) => Schema | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    const document = (await t.call('/api/openapi.json', { auth: false })).json as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
      components?: { schemas?: Record<string, Schema> };
    };
    resolve = (schema) => (schema?.$ref ? document.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''] : schema);
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method, operation]) => ['post', 'put', 'patch'].includes(method) && operation.requestBody)
        .filter(() => !path.startsWith('/api/payment-webhooks'))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          url: path.replace(/\{[^}]+\}/g, 'matrix-nothing'),
          schema: operation.requestBody?.content?.['application/json']?.schema,
        })),
    );
  });
  afterAll(() => t.close());

  describe(`generated bad bodies on the write routes, shard ${shard + 1} of ${shards}`, () => {
    it('are refused with 4xx and {code, message}, never 5xx, and write nothing', { timeout: 600_000 }, async () => {
      expect(operations.length, 'the document lists the write routes').toBeGreaterThan(40);
      const mine = operations.filter((_, index) => index % shards === shard);
      const failures: string[] = [];
      let sent = 0;
      for (const operation of mine) {
        const before = await ownTenant(t).count(logs);
        let successes = 0;
        await fc
          .assert(
            fc.asyncProperty(bodyFor(operation.schema, resolve), async (body) => {
              sent++;
              const response = await t.call(operation.url, { method: operation.method, rawBody: JSON.stringify(body) });
              if (response.status < 400) {
                successes++;
                return true;
              }
              const wellFormed =
                response.status < 500 &&
                typeof response.json?.code === 'string' &&
                typeof response.json?.message === 'string';
              if (!wellFormed && failures.length < 20) {
                failures.push(
                  `${operation.method} ${operation.path}: ${response.status} ${response.text.slice(0, 200)}`,
                );
              }
              return wellFormed;
            }),
            { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
          )
          // A failing property names its seed and path, to replay the bodies with fast-check's `seed` and `path`.
          .catch((error: Error) =>
            failures.push(`${operation.method} ${operation.path}: ${error.message.split('\n').slice(0, 2).join(' ')}`),
          );
        const written = (await ownTenant(t).count(logs)) - before;
        if (written > successes)
          failures.push(`${operation.method} ${operation.path}: ${written} audit entries for ${successes} successes`);
      }
      expect(failures).toEqual([]);
      expect(sent, 'bodies tried').toBeGreaterThanOrEqual(mine.length * RUNS_PER_ROUTE);
    });
  });
}
