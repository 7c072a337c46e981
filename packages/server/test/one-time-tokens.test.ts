import { createHash } from 'node:crypto';
import { ONE_TIME_TOKEN_MASK } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeTokens } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

/**
 * One-time tokens on the reference's paths (`/one-time-tokens`): its request and answer shapes, statuses and codes;
 * the value shown once and kept as a hash; the audit of every write; the tenant's own tokens only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TokenJson = {
  tenantId: string;
  id: string;
  email: string;
  token: string;
  context: Record<string, unknown>;
  status: string;
  createdAt: number;
  expiresAt: number;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const create = (body: Record<string, unknown>) => t.call('/api/one-time-tokens', { method: 'POST', body });
const verify = (body: Record<string, unknown>) => t.call('/api/one-time-tokens/verify', { method: 'POST', body });
const setStatus = (id: string, status: unknown) =>
  t.call(`/api/one-time-tokens/${id}/status`, { method: 'PUT', body: { status } });
async function issue(email: string, extra: Record<string, unknown> = {}): Promise<TokenJson> {
  const response = await create({ email, ...extra });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as TokenJson;
}
/** Moves a token's expiry into the past, as time passing would. */
const expire = (id: string) =>
  ownTenant(t).update(oneTimeTokens, eq(oneTimeTokens.id, id), { expiresAt: new Date(Date.now() - 1000) });

describe('POST /one-time-tokens', () => {
  it('answers 201 with the reference shape and the value once; lists and reads mask it; a hash is stored', async () => {
    const before = Date.now();
    const response = await create({
      email: 'ada@example.com',
      expiresIn: 3600,
      context: { jitOrganizationIds: ['org1'], interactionEvent: 'SignIn' },
    });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    const token = response.json as TokenJson;
    expect(token).toEqual({
      tenantId: 'default',
      id: expect.stringMatching(/^[0-9a-z]{21}$/),
      email: 'ada@example.com',
      token: expect.stringMatching(/^[0-9a-z]{32}$/),
      context: { jitOrganizationIds: ['org1'], interactionEvent: 'SignIn' },
      status: 'active',
      createdAt: expect.any(Number),
      expiresAt: expect.any(Number),
    });
    expect(token.expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(token.expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const read = await t.call(`/api/one-time-tokens/${token.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ ...token, token: ONE_TIME_TOKEN_MASK });
    const list = await t.call('/api/one-time-tokens?email=ada@example.com');
    expect(list.json).toEqual([{ ...token, token: ONE_TIME_TOKEN_MASK }]);
    expect(list.text).not.toContain(token.token);

    const [row] = await ownTenant(t).findMany(oneTimeTokens, { where: eq(oneTimeTokens.id, token.id) });
    expect(row?.tokenHash).toBe(sha256(token.token));
    expect(JSON.stringify(row)).not.toContain(token.token);
  });

  it('defaults to ten minutes and an empty context, and makes a fresh value each time', async () => {
    const one = await issue('default@example.com');
    const two = await issue('default@example.com');
    expect(one.context).toEqual({});
    expect(one.expiresAt - one.createdAt).toBeGreaterThanOrEqual(599_000);
    expect(one.expiresAt - one.createdAt).toBeLessThanOrEqual(601_000);
    expect(one.token).not.toBe(two.token);
    expect(one.id).not.toBe(two.id);
  });

  it('answers 400 {code, message} for a bad body', async () => {
    const cases: [string, unknown, string | undefined][] = [
      ['no email', { expiresIn: 60 }, 'email'],
      ['not an email', { email: 'nope' }, 'email'],
      ['email too long', { email: `${'a'.repeat(120)}@example.com` }, 'email'],
      ['expiresIn zero', { email: 'a@example.com', expiresIn: 0 }, 'expiresIn'],
      ['expiresIn not a number', { email: 'a@example.com', expiresIn: '60' }, 'expiresIn'],
      ['expiresIn past ten years', { email: 'a@example.com', expiresIn: 400_000_000 }, 'expiresIn'],
      ['bad interaction event', { email: 'a@example.com', context: { interactionEvent: 'Nope' } }, undefined],
    ];
    for (const [label, body, field] of cases) {
      const response = await create(body as Record<string, unknown>);
      expectInvalid(response, field, label);
      expect(typeof response.json.message, label).toBe('string');
    }
    const french = await t.call('/api/one-time-tokens', {
      method: 'POST',
      body: {},
      headers: { 'Accept-Language': 'fr' },
    });
    expect(french.json.code).toBe('guard.invalid_input');
    // A token of the caller's choosing is not a field of the API: dropped (as the reference does), never used.
    const chosen = await create({ email: 'chosen@example.com', token: 'chosen', context: { foo: 1 } });
    expect(chosen.status).toBe(201);
    expect(chosen.json.token).not.toBe('chosen');
    expect(chosen.json.context ?? {}, 'an undeclared context key too').not.toHaveProperty('foo');
  });
});

describe('GET /one-time-tokens', () => {
  it('filters by email and status (an expired active token answers expired), newest first', async () => {
    const email = 'filter@example.com';
    const a = await issue(email);
    const b = await issue(email);
    const c = await issue(email);
    await issue('someone-else@example.com');
    await expire(a.id);
    expect((await setStatus(b.id, 'revoked')).status).toBe(200);
    const all = await t.call(`/api/one-time-tokens?email=${email}`);
    expect(all.status).toBe(200);
    expect(all.headers.get('Total-Number'), 'no pagination asked: no total').toBeNull();
    expect((all.json as TokenJson[]).map((token) => [token.id, token.status])).toEqual([
      [c.id, 'active'],
      [b.id, 'revoked'],
      [a.id, 'expired'],
    ]);
    const ids = async (query: string) =>
      ((await t.call(`/api/one-time-tokens?email=${email}&${query}`)).json as TokenJson[]).map((token) => token.id);
    expect(await ids('status=active')).toEqual([c.id]);
    expect(await ids('status=expired')).toEqual([a.id]);
    expect(await ids('status=revoked')).toEqual([b.id]);
    expect(await ids('status=consumed')).toEqual([]);
  });

  it('pages when asked (Total-Number counts the filtered rows, Link says where next)', async () => {
    const email = 'pages@example.com';
    for (let i = 0; i < 3; i++) await issue(email);
    const page = await t.call(`/api/one-time-tokens?email=${email}&page=1&page_size=2`);
    expect(page.status).toBe(200);
    expect(page.json).toHaveLength(2);
    expect(page.headers.get('Total-Number')).toBe('3');
    expect(page.headers.get('Link')).toContain('rel="next"');
    const second = await t.call(`/api/one-time-tokens?email=${email}&page=2&page_size=2`);
    expect(second.json).toHaveLength(1);
  });

  it('answers 400 for a bad filter or page', async () => {
    expectInvalid(await t.call('/api/one-time-tokens?email=nope'), 'email');
    expectInvalid(await t.call('/api/one-time-tokens?status=gone'), 'status');
    const page = await t.call('/api/one-time-tokens?page=0');
    expect(page.status).toBe(400);
    expect(page.json.code).toBe('guard.invalid_pagination');
  });
});

describe('POST /one-time-tokens/verify', () => {
  it('spends an active token once (200, consumed, the value echoed), then 400 token_consumed', async () => {
    const token = await issue('verify@example.com');
    const spent = await verify({ token: token.token, email: 'verify@example.com' });
    expect(spent.status, JSON.stringify(spent.json)).toBe(200);
    expect(spent.json).toEqual({ ...token, status: 'consumed' });
    const again = await verify({ token: token.token, email: 'verify@example.com' });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: 'one_time_token.token_consumed', message: expect.any(String) });
  });

  it('answers the reference codes: not found (404), email mismatch, expired, revoked (400)', async () => {
    const unknown = await verify({ token: 'x'.repeat(32), email: 'who@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 'one_time_token.token_not_found', message: expect.any(String) });

    const mismatch = await issue('owner@example.com');
    const wrongEmail = await verify({ token: mismatch.token, email: 'thief@example.com' });
    expect(wrongEmail.status).toBe(400);
    expect(wrongEmail.json.code).toBe('one_time_token.email_mismatch');
    expect((await t.call(`/api/one-time-tokens/${mismatch.id}`)).json.status, 'still unspent').toBe('active');

    const old = await issue('old@example.com');
    await expire(old.id);
    const expired = await verify({ token: old.token, email: 'old@example.com' });
    expect(expired.status).toBe(400);
    expect(expired.json.code).toBe('one_time_token.token_expired');

    const revoked = await issue('revoked@example.com');
    await setStatus(revoked.id, 'revoked');
    const refused = await verify({ token: revoked.token, email: 'revoked@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('one_time_token.token_revoked');

    const german = await verify({ token: 'y'.repeat(32), email: 'who@example.com' });
    const germanAgain = await t.call('/api/one-time-tokens/verify', {
      method: 'POST',
      body: { token: 'y'.repeat(32), email: 'who@example.com' },
      headers: { 'Accept-Language': 'de' },
    });
    expect(germanAgain.json.code).toBe('one_time_token.token_not_found');
    expect(germanAgain.json.message).not.toBe(german.json.message);
  });

  it('spends a token once when verified twice at the same moment', async () => {
    const token = await issue('race@example.com');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => verify({ token: token.token, email: 'race@example.com' })),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    for (const result of results.filter((r) => r.status !== 200)) {
      expect(result.json.code).toBe('one_time_token.token_consumed');
    }
  });

  it('answers 400 for a bad body', async () => {
    expectInvalid(await verify({ email: 'a@example.com' }), 'token');
    expectInvalid(await verify({ token: 'abc' }), 'email');
    const extra = await verify({ token: 'abc', email: 'a@example.com', extra: true });
    expect(extra.status, 'an undeclared field is dropped: the unknown token is what is refused').toBe(404);
    expect(extra.json.code).not.toBe('guard.invalid_input');
  });
});

describe('PUT /one-time-tokens/{id}/status', () => {
  it('changes the status (200) but never back to active (400 cannot_reactivate_token)', async () => {
    const token = await issue('status@example.com');
    const revoked = await setStatus(token.id, 'revoked');
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ ...token, token: ONE_TIME_TOKEN_MASK, status: 'revoked' });
    const back = await setStatus(token.id, 'active');
    expect(back.status).toBe(400);
    expect(back.json).toEqual({ code: 'one_time_token.cannot_reactivate_token', message: expect.any(String) });
    expect((await setStatus(token.id, 'consumed')).json.status).toBe('consumed');
    expectInvalid(await setStatus(token.id, 'paused'), 'status');
    const missing = await setStatus('nothing-here', 'revoked');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 'entity.not_exists_with_id', message: expect.any(String) });
  });
});

describe('GET and DELETE /one-time-tokens/{id}', () => {
  it('reads (404 entity.not_exists_with_id when unknown) and deletes (204, then 404 entity.not_found)', async () => {
    const token = await issue('delete@example.com');
    const missing = await t.call('/api/one-time-tokens/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 'entity.not_exists_with_id', message: expect.any(String) });
    const removed = await t.call(`/api/one-time-tokens/${token.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await t.call(`/api/one-time-tokens/${token.id}`)).status).toBe(404);
    const again = await t.call(`/api/one-time-tokens/${token.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ code: 'entity.not_found', message: expect.any(String) });
    const spent = await verify({ token: token.token, email: 'delete@example.com' });
    expect(spent.json.code).toBe('one_time_token.token_not_found');
  });
});

describe('audit', () => {
  it('records every write under the token, never with its value or hash; refusals leave nothing', async () => {
    const token = await issue('audit@example.com');
    await verify({ token: token.token, email: 'audit@example.com' });
    await setStatus(token.id, 'revoked');
    await setStatus(token.id, 'active');
    await verify({ token: token.token, email: 'audit@example.com' });
    await t.call(`/api/one-time-tokens/${token.id}`, { method: 'DELETE' });
    const entries = await auditEntries(t, token.id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.OneTimeToken.Deleted',
      'Admin.OneTimeToken.Updated',
      'Admin.OneTimeToken.Updated',
      'Admin.OneTimeToken.Created',
    ]);
    expect(entries[3]?.payload).toMatchObject({
      before: null,
      after: { email: 'audit@example.com', status: 'active' },
    });
    expect(entries[2]?.payload).toMatchObject({ before: { status: 'active' }, after: { status: 'consumed' } });
    expect(entries[1]?.payload).toMatchObject({ before: { status: 'consumed' }, after: { status: 'revoked' } });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(token.token);
    expect(text).not.toContain(sha256(token.token));
  });
});

describe('access', () => {
  it("keeps another tenant's tokens invisible and unusable", async () => {
    const value = 'foreignforeignforeignforeign0000';
    const foreign = await otherTenant(t).insert(oneTimeTokens, {
      id: 'foreigntoken',
      email: 'foreign@example.com',
      tokenHash: sha256(value),
      expiresAt: new Date(Date.now() + 600_000),
    });
    expect((await t.call(`/api/one-time-tokens/${foreign.id}`)).status).toBe(404);
    expect((await setStatus(foreign.id, 'revoked')).status).toBe(404);
    expect((await t.call(`/api/one-time-tokens/${foreign.id}`, { method: 'DELETE' })).status).toBe(404);
    const listed = (await t.call('/api/one-time-tokens?email=foreign@example.com')).json as TokenJson[];
    expect(listed).toEqual([]);
    const spent = await verify({ token: value, email: 'foreign@example.com' });
    expect(spent.status).toBe(404);
    expect(spent.json.code).toBe('one_time_token.token_not_found');
    const [row] = await otherTenant(t).findMany(oneTimeTokens, { where: eq(oneTimeTokens.id, foreign.id) });
    expect(row?.status).toBe('active');
  });

  it('needs a token (401) with scope all (403)', async () => {
    const token = await issue('guarded@example.com');
    await expectGuarded(t, [
      { method: 'GET', path: '/api/one-time-tokens' },
      { method: 'POST', path: '/api/one-time-tokens', body: { email: 'a@example.com' } },
      { method: 'GET', path: `/api/one-time-tokens/${token.id}` },
      { method: 'DELETE', path: `/api/one-time-tokens/${token.id}` },
      { method: 'POST', path: '/api/one-time-tokens/verify', body: { token: token.token, email: token.email } },
      { method: 'PUT', path: `/api/one-time-tokens/${token.id}/status`, body: { status: 'revoked' } },
    ]);
    expect((await t.call(`/api/one-time-tokens/${token.id}`)).json.status).toBe('active');
  });
});
