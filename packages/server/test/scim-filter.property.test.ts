import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimThrottleKey } from '../src/routes/scim.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { CORE_USER, createScimConnection, ENTERPRISE, patch, scimClient } from './support/scim.ts';

/**
 * SCIM filters, generated: every filter is either refused with 400 `invalidFilter`, exactly when the reference below
 * says it is not a valid filter for the User schema, or answered with exactly the users the reference evaluation in
 * JavaScript selects from the resources as the service returns them. Never a 500. Garbage and cut-off filters get 200
 * or 400 `invalidFilter`. The reference is written from the rules of services/scim/filter.ts (case-insensitive text
 * except `id` and `externalId`, `ne` as not `eq`, any value of a multi-valued attribute, Entra ID's `a[f].b op v` as
 * one value, dates as instants).
 */

const RUNS = Number(process.env.SCIM_FILTER_RUNS ?? 150);

let t: TestApp;
let scim: ReturnType<typeof scimClient>;
let throttleKey = '';
let sent = 0;
// biome-ignore lint/suspicious/noExplicitAny: the resources are untyped SCIM JSON, read by the reference below.
let resources: any[] = [];

const fixtures = [
  {
    userName: 'ada@example.com',
    externalId: 'EXT-1',
    displayName: 'Ada Lovelace',
    title: 'Countess',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [
      { value: 'ada@example.com', type: 'work', primary: true },
      { value: 'ada@home.org', type: 'home', display: 'Home' },
    ],
    [ENTERPRISE]: { department: 'Engines' },
  },
  {
    userName: 'grace@example.com',
    externalId: 'ext-2',
    displayName: 'Grace Hopper',
    title: 'Rear Admiral',
    name: { givenName: 'Grace', familyName: 'Hopper' },
    emails: [{ value: 'grace@example.com', type: 'work' }],
    active: false,
  },
  {
    userName: 'Alan@Example.org',
    displayName: 'alan turing',
    emails: [{ value: 'Alan@Example.org', type: 'home', primary: true }],
    [ENTERPRISE]: { department: 'engines' },
  },
  { userName: 'edsger@example.net', emails: [{ value: 'edsger@example.net' }], title: '' },
  {
    userName: 'barbara@x.io',
    externalId: 'EXT-5',
    displayName: 'Barbara',
    name: { familyName: 'Liskov' },
    emails: [
      { value: 'barbara@x.io', type: 'work', primary: false },
      { value: 'b@x.io', type: 'work' },
    ],
  },
  { userName: 'ken_t', displayName: 'Ken "K" T', emails: [{ value: 'ken@bell.test', type: 'other', primary: false }] },
];

beforeAll(async () => {
  t = await createTestApp();
  const setup = await createScimConnection(t);
  scim = scimClient(t, setup.token);
  throttleKey = scimThrottleKey(DEFAULT_TENANT_ID, setup.connectionId);
  for (const fixture of fixtures) {
    const created = await scim('POST', '/Users', { schemas: [CORE_USER, ENTERPRISE], ...fixture });
    expect(created.status, created.text).toBe(201);
  }
  resources = (await scim('GET', '/Users?count=100')).json.Resources;
  // One more change, so meta.created and meta.lastModified differ somewhere.
  await scim(
    'PATCH',
    `/Users/${resources[0].id}`,
    patch({ op: 'replace', path: 'title', value: 'Countess of Lovelace' }),
  );
  resources = (await scim('GET', '/Users?count=100')).json.Resources;
});
afterAll(() => t.close());

// ——— The reference ———

type Kind = 'string' | 'exact' | 'boolean' | 'dateTime' | 'complex' | 'multi' | 'unknown';
type Ref = { keys: string[]; kind: Kind };
type Leaf = { attr: string; ref: Ref };
type Value = string | boolean | number | null;
type Op = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
type F =
  | { type: 'and' | 'or'; items: F[] }
  | { type: 'not'; item: F }
  | { type: 'cmp'; leaf: Leaf; op: Op; value: Value }
  | { type: 'pr'; leaf: Leaf }
  | { type: 'any'; inner: F }
  | { type: 'entra'; inner: F; leaf: Leaf; op: Op; value: Value };

const top: Record<string, Ref> = {
  userName: { keys: ['userName'], kind: 'string' },
  displayName: { keys: ['displayName'], kind: 'string' },
  title: { keys: ['title'], kind: 'string' },
  externalId: { keys: ['externalId'], kind: 'exact' },
  id: { keys: ['id'], kind: 'exact' },
  active: { keys: ['active'], kind: 'boolean' },
  'name.givenName': { keys: ['name', 'givenName'], kind: 'string' },
  'name.familyName': { keys: ['name', 'familyName'], kind: 'string' },
  name: { keys: ['name'], kind: 'complex' },
  emails: { keys: ['emails'], kind: 'multi' },
  [`${ENTERPRISE}:department`]: { keys: [ENTERPRISE, 'department'], kind: 'string' },
  'meta.created': { keys: ['meta', 'created'], kind: 'dateTime' },
  'meta.lastModified': { keys: ['meta', 'lastModified'], kind: 'dateTime' },
  shoeSize: { keys: ['shoeSize'], kind: 'unknown' },
  'name.nickname': { keys: ['name', 'nickname'], kind: 'unknown' },
};
/** Sub-attributes of an email (inside `emails[…]`, or after `emails.`). */
const element: Record<string, Ref> = {
  value: { keys: ['value'], kind: 'string' },
  type: { keys: ['type'], kind: 'string' },
  display: { keys: ['display'], kind: 'string' },
  primary: { keys: ['primary'], kind: 'boolean' },
  nope: { keys: ['nope'], kind: 'unknown' },
};

const validLeaf = (ref: Ref, op: Op | 'pr', value?: Value): boolean => {
  if (ref.kind === 'unknown') return false;
  if (op === 'pr') return true;
  if (ref.kind === 'complex' || ref.kind === 'multi') return false;
  if (ref.kind === 'boolean') return typeof value === 'boolean' && (op === 'eq' || op === 'ne');
  if (typeof value !== 'string') return false;
  if (ref.kind === 'dateTime') {
    if (op === 'co' || op === 'sw' || op === 'ew' || Number.isNaN(Date.parse(value))) return false;
    const year = new Date(value).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }
  return true;
};

function valid(filter: F): boolean {
  switch (filter.type) {
    case 'and':
    case 'or':
      return filter.items.every(valid);
    case 'not':
      return valid(filter.item);
    case 'cmp':
      return validLeaf(filter.leaf.ref, filter.op, filter.value);
    case 'pr':
      return validLeaf(filter.leaf.ref, 'pr');
    case 'any':
      return valid(filter.inner);
    case 'entra':
      return valid(filter.inner) && validLeaf(filter.leaf.ref, filter.op, filter.value);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: walks untyped SCIM JSON.
const at = (resource: any, keys: string[]): unknown => keys.reduce((value, key) => value?.[key], resource);

function compareValue(actual: unknown, ref: Ref, op: Op, value: Value): boolean {
  if (actual === undefined || actual === null) return op === 'ne';
  if (ref.kind === 'boolean') return (actual === value) === (op === 'eq');
  if (ref.kind === 'dateTime') {
    const a = Date.parse(String(actual));
    const b = Date.parse(String(value));
    const result = { eq: a === b, ne: a !== b, gt: a > b, ge: a >= b, lt: a < b, le: a <= b }[op as 'eq'];
    return result ?? false;
  }
  const fold = (text: string) => (ref.kind === 'exact' ? text : text.toLowerCase());
  const a = fold(String(actual));
  const b = fold(String(value));
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: evaluates against untyped SCIM JSON.
function matches(filter: F, resource: any, inEmail = false): boolean {
  const emails: unknown[] = Array.isArray(resource.emails) ? resource.emails : [];
  switch (filter.type) {
    case 'and':
      return filter.items.every((item) => matches(item, resource, inEmail));
    case 'or':
      return filter.items.some((item) => matches(item, resource, inEmail));
    case 'not':
      return !matches(filter.item, resource, inEmail);
    case 'pr':
      if (!inEmail && filter.leaf.attr.toLowerCase().startsWith('emails.')) {
        return emails.some((email) => at(email, filter.leaf.ref.keys) !== undefined);
      }
      return at(resource, filter.leaf.ref.keys) !== undefined;
    case 'cmp': {
      const { leaf, op, value } = filter;
      if (!inEmail && leaf.attr.toLowerCase().startsWith('emails.')) {
        const some = emails.some((email) =>
          compareValue(at(email, leaf.ref.keys), leaf.ref, op === 'ne' ? 'eq' : op, value),
        );
        return op === 'ne' ? !some : some;
      }
      return compareValue(at(resource, leaf.ref.keys), leaf.ref, op, value);
    }
    case 'any':
      return emails.some((email) => matches(filter.inner, email, true));
    case 'entra':
      return emails.some(
        (email) =>
          matches(filter.inner, email, true) &&
          compareValue(at(email, filter.leaf.ref.keys), filter.leaf.ref, filter.op, filter.value),
      );
  }
}

// ——— Generators and the text of a filter ———

const casing = (name: string) =>
  fc.constantFrom(name, name.toUpperCase(), name.toLowerCase(), name.charAt(0).toUpperCase() + name.slice(1));
const ops: Op[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];
const text = fc.oneof(
  fc.constantFrom(
    'ada',
    'ADA',
    'Ada Lovelace',
    'example',
    '@example.com',
    'ext-2',
    'EXT-1',
    'work',
    'home',
    'Engines',
    'e',
    '',
    'Ken "K" T',
    'zzz',
    'grace@example.com',
    'b@x.io',
    '2000-01-01T00:00:00Z',
    '2999-01-01T00:00:00Z',
    'not a date',
  ),
  fc.string({ unit: fc.constantFrom(...'abegkdrAEGK@.-_ "'.split('')), maxLength: 8 }),
);
const value: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom<Value>(null, 42) },
);

function leafOf(refs: Record<string, Ref>, prefix = ''): fc.Arbitrary<Leaf> {
  return fc.constantFrom(...Object.keys(refs)).chain((name) => {
    const ref = refs[name] as Ref;
    const parts = name.startsWith('urn:') ? [name] : name.split('.');
    return fc
      .tuple(...parts.map((part) => (part.startsWith('urn:') ? fc.constant(part) : casing(part))))
      .map((cased) => ({ attr: `${prefix}${cased.join('.')}`, ref }));
  });
}
/** Top-level leaves, and `emails.<sub>` ones. */
const topLeaf = fc.oneof({ weight: 4, arbitrary: leafOf(top) }, { weight: 1, arbitrary: leafOf(element, 'emails.') });

/** A value of the leaf's own type most of the time, any value otherwise (refused unless it happens to fit). */
function valueFor(ref: Ref): fc.Arbitrary<Value> {
  if (ref.kind === 'boolean') return fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: value });
  if (ref.kind === 'dateTime') {
    const instants = fc.constantFrom(
      ...resources.flatMap((resource) => [resource.meta.created, resource.meta.lastModified]),
    );
    return fc.oneof({ weight: 3, arbitrary: instants }, { weight: 1, arbitrary: value });
  }
  return fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: value });
}

function comparison(leaf: fc.Arbitrary<Leaf>): fc.Arbitrary<F> {
  const compared = leaf.chain((l) =>
    fc
      .record({ op: fc.constantFrom(...ops), value: valueFor(l.ref) })
      .map((c) => ({ type: 'cmp' as const, leaf: l, ...c })),
  );
  return fc.oneof(
    { weight: 4, arbitrary: compared },
    { weight: 1, arbitrary: leaf.map((l) => ({ type: 'pr' as const, leaf: l })) },
  );
}

const emailFilter: fc.Arbitrary<F> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison(leafOf(element)),
    fc.record({
      type: fc.constantFrom('and' as const, 'or' as const),
      items: fc.array(tie('node') as fc.Arbitrary<F>, { minLength: 2, maxLength: 3 }),
    }),
    (tie('node') as fc.Arbitrary<F>).map((item) => ({ type: 'not' as const, item })),
  ),
})).node;

const filter: fc.Arbitrary<F> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison(topLeaf),
    emailFilter.map((inner) => ({ type: 'any' as const, inner })),
    fc
      .record({ inner: emailFilter, leaf: leafOf(element), op: fc.constantFrom(...ops), value })
      .map((c) => ({ type: 'entra' as const, ...c })),
    fc.record({
      type: fc.constantFrom('and' as const, 'or' as const),
      items: fc.array(tie('node') as fc.Arbitrary<F>, { minLength: 2, maxLength: 3 }),
    }),
    (tie('node') as fc.Arbitrary<F>).map((item) => ({ type: 'not' as const, item })),
  ),
})).node;

const literal = (v: Value) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
function render(node: F): string {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.items.map((item) => `(${render(item)})`).join(` ${node.type} `);
    case 'not':
      return `not (${render(node.item)})`;
    case 'cmp':
      return `${node.leaf.attr} ${node.op} ${literal(node.value)}`;
    case 'pr':
      return `${node.leaf.attr} pr`;
    case 'any':
      return `emails[${render(node.inner)}]`;
    case 'entra':
      return `emails[${render(node.inner)}].${node.leaf.attr} ${node.op} ${literal(node.value)}`;
  }
}

/** A deep run (SCIM_FILTER_RUNS) sends more than a connection may in a minute: its window starts again. */
async function counted() {
  sent += 1;
  if (sent % 1000 === 0) await t.db.execute(sql`delete from failure_windows where key = ${throttleKey}`);
}
async function list(query: string) {
  await counted();
  return scim('GET', `/Users?count=100&filter=${encodeURIComponent(query)}`);
}

describe('SCIM filters (property)', () => {
  it('are refused with invalidFilter exactly when invalid, and otherwise select what the reference selects', async () => {
    await fc.assert(
      fc.asyncProperty(filter, async (generated) => {
        const query = render(generated);
        const answer = await list(query);
        if (!valid(generated)) {
          expect(answer.status, `${query} → ${answer.text}`).toBe(400);
          expect(answer.json.scimType).toBe('invalidFilter');
          return;
        }
        expect(answer.status, `${query} → ${answer.text}`).toBe(200);
        const expected = resources.filter((resource) => matches(generated, resource)).map((resource) => resource.id);
        const got = answer.json.Resources.map((resource: { id: string }) => resource.id);
        expect(got.sort(), query).toEqual(expected.sort());
        expect(answer.json.totalResults).toBe(expected.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers garbage and cut-off filters with 200 or 400 invalidFilter, never an error of the server', async () => {
    const garbage = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.tuple(filter.map(render), fc.nat()).map(([query, cut]) => query.slice(0, cut % (query.length + 1))),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (query) => {
        const answer = await list(query);
        if (answer.status === 200) return;
        expect(answer.status, `${query} → ${answer.text}`).toBe(400);
        expect(answer.json.scimType, query).toBe('invalidFilter');
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe('SCIM PATCH (property)', () => {
  it('answers generated operations with 200 or a 4xx SCIM error, never an error of the server', async () => {
    const created = await scim('POST', '/Users', {
      userName: 'patched@example.com',
      emails: [{ value: 'patched@example.com' }],
    });
    const id = created.json.id;
    const path = fc.oneof(
      fc.constantFrom(
        'displayName',
        'Title',
        'name.givenName',
        'NAME',
        'emails',
        'emails[type eq "work"].value',
        'emails[value sw "p"]',
        'emails[type eq "work"].nope',
        'phoneNumbers[type eq "mobile"].value',
        'addresses[type eq "work"].streetAddress',
        'active',
        'userName',
        'externalId',
        `${ENTERPRISE}:manager`,
        `${ENTERPRISE}:department`,
        'urn:ietf:params:scim:schemas:core:2.0:User:nickName',
        'id',
        'meta.created',
        'groups',
        'members',
        'emails[',
        'a.b.c',
        '',
      ),
      fc.string({ maxLength: 20 }),
    );
    const json = fc.jsonValue({ maxDepth: 3 });
    const operation = fc.record(
      {
        op: fc.constantFrom('add', 'Add', 'replace', 'Replace', 'REMOVE', 'remove', 'copy'),
        path,
        value: fc.oneof(
          json,
          fc.constantFrom('False', 'True', 'x@example.com', [{ value: 'y@example.com', type: 'work' }]),
        ),
      },
      { requiredKeys: ['op'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 4 }), async (operations) => {
        await counted();
        const answer = await scim('PATCH', `/Users/${id}`, patch(...operations));
        expect(answer.status < 500, `${JSON.stringify(operations)} → ${answer.text}`).toBe(true);
        if (answer.status !== 200)
          expect(answer.json.schemas, answer.text).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
