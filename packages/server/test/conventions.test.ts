import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/app.ts';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 25; i++) {
    const response = await t.call('/api/roles', {
      method: 'POST',
      body: { name: `page-role-${String(i).padStart(2, '0')}` },
    });
    expect(response.status).toBe(200);
  }
});
afterAll(() => t.close());

describe('public routes', () => {
  it('GET /api/status answers 204 without a token, with security headers', async () => {
    const response = await t.call('/api/status', { auth: false });
    expect(response.status).toBe(204);
    const csp = response.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp, 'no inline script allowed').not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp, 'JSON answers carry no style nonce (only pages need one)').not.toContain("'nonce-");
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('X-Request-Id'), 'every response carries a request id').toBeTruthy();
  });

  it('/ redirects to /console', async () => {
    const response = await t.app.request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/console');
  });

  it('serves a valid OpenAPI 3.1 document generated from the routes', async () => {
    const response = await t.call('/api/openapi.json', { auth: false });
    expect(response.status).toBe(200);
    const document = response.json as unknown as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    const validation = await new Validator().validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(validation.errors ?? [], JSON.stringify(validation.errors)).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/roles', '/api/roles/{id}', '/api/logs', '/api/logs/{id}']),
    );
    expect(Object.keys(document.paths['/api/roles'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20 with Total-Number and Link headers', async () => {
    const response = await t.call('/api/roles?search=page-role%25');
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(20);
    expect(response.headers.get('Total-Number')).toBe('25');
    const link = response.headers.get('Link') ?? '';
    expect(link).toContain('rel="first"');
    expect(link).toContain('rel="next"');
    expect(link).toContain('page=2');
    expect(link, 'page 1 has no previous page').not.toContain('rel="prev"');
    expect(link, 'links keep the path and the other query parameters').toBe(
      '</api/roles?search=page-role%25&page=1&page_size=20>; rel="first", ' +
        '</api/roles?search=page-role%25&page=2&page_size=20>; rel="next", ' +
        '</api/roles?search=page-role%25&page=2&page_size=20>; rel="last"',
    );
  });

  it('returns the requested page', async () => {
    const response = await t.call('/api/roles?search=page-role%25&page=3&page_size=10');
    expect(response.json).toHaveLength(5);
    expect(response.headers.get('Link')).toContain('rel="prev"');
    expect(response.headers.get('Link')).not.toContain('rel="next"');
    const names = (response.json as { name: string }[]).map((role) => role.name);
    expect(names, 'oldest roles are on the last page').toEqual([
      'page-role-04',
      'page-role-03',
      'page-role-02',
      'page-role-01',
      'page-role-00',
    ]);
  });

  it('an empty page beyond the end is 200 with an empty list', async () => {
    const response = await t.call('/api/roles?search=page-role%25&page=99');
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
    expect(response.headers.get('Total-Number')).toBe('25');
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page_size=0', 'page_size=101', 'page_size=1.5', 'page=1e3'])(
    'rejects %s with 400 guard.invalid_pagination',
    async (query) => {
      const response = await t.call(`/api/roles?${query}`);
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('guard.invalid_pagination');
      expect(typeof response.json.message).toBe('string');
    },
  );
});

describe('errors', () => {
  it('malformed JSON is 400 request.invalid_json and nothing is written', async () => {
    const response = await t.call('/api/roles', { method: 'POST', rawBody: '{"name": "broken"' });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('request.invalid_json');
    expect((await t.call('/api/roles?search=broken')).json).toEqual([]);
  });

  it('a body that is not JSON is 415 request.unsupported_media_type', async () => {
    const response = await t.call('/api/roles', {
      method: 'POST',
      rawBody: 'name=form',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.json.code).toBe('request.unsupported_media_type');
    expect((await t.call('/api/roles?search=form')).json).toEqual([]);
  });

  it('an oversized body is 413 request.payload_too_large', async () => {
    const response = await t.call('/api/roles', {
      method: 'POST',
      rawBody: JSON.stringify({ name: 'big', description: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(response.json.code).toBe('request.payload_too_large');
  });

  it('an unknown API route is 404 route.not_found', async () => {
    const response = await t.call('/api/no-such-area');
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('route.not_found');
  });

  it('Accept-Language chooses the language of the message', async () => {
    const german = await t.call('/api/roles/nope', { headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' } });
    expect(german.json).toMatchObject({
      code: 'entity.not_exists_with_id',
      message: 'Die angeforderte Ressource wurde nicht gefunden.',
    });
    const arabic = await t.call('/api/roles/nope', { headers: { 'Accept-Language': 'ar' } });
    expect(arabic.json.message).toBe('لم يتم العثور على المورد المطلوب.');
    const unknown = await t.call('/api/roles/nope', { headers: { 'Accept-Language': 'xx-YY' } });
    expect(unknown.json.message, 'unsupported languages fall back to English').toBe(
      'The requested resource was not found.',
    );
  });

  it('keeps serving after bad requests', async () => {
    await t.call('/api/roles', { method: 'POST', rawBody: '{{{' });
    expect((await t.call('/api/status', { auth: false })).status).toBe(204);
    expect((await t.call('/api/roles')).status).toBe(200);
  });
});

describe('internal errors', () => {
  it('answer 500 request.general without leaking a stack', async () => {
    const broken = await createTestApp();
    const token = await broken.token();
    const headers = { Authorization: `Bearer ${token}` };
    expect((await broken.call('/api/roles', { headers })).status, 'warms the key and tenant caches').toBe(200);
    await broken.close(); // every query now fails inside the driver
    const response = await broken.call('/api/roles', { headers });
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ code: 'request.general', message: 'Internal server error.' });
    expect(response.text).not.toMatch(/at .*\.ts|Error:/);
  });
});
