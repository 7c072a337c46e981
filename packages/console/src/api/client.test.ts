import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { i18n } from '../i18n/index.ts';
import deCommon from '../i18n/locales/de/common.json';
import { ApiError, request, requestPage } from './client.ts';

type Answer = { body?: string | null; status: number; statusText?: string };

/** Replaces fetch with one fixed answer and returns the mock to inspect what was sent. */
function answer({ body = null, status, statusText = '' }: Answer) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    return new Response(body, { status, statusText });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

let signedInToken: string | undefined;
const sessionErrors = vi.hoisted(() => ({ expired: 0, forbidden: [] as boolean[] }));
vi.mock('../auth/session.ts', () => ({
  tokenFor: async () => signedInToken,
  SessionExpiredError: class extends Error {},
}));
// The real handlers leave the page; here they record the reaction and settle so the test can go on.
vi.mock('../auth/session-errors.ts', () => ({
  handleSessionExpired: async () => {
    sessionErrors.expired += 1;
    throw new Error('signing in again');
  },
  handleForbidden: async (withAlert: boolean) => {
    sessionErrors.forbidden.push(withAlert);
  },
}));

beforeAll(async () => {
  i18n.addResourceBundle('de', 'common', deCommon);
  await i18n.changeLanguage('de');
});

afterEach(() => {
  vi.unstubAllGlobals();
  signedInToken = undefined;
  sessionErrors.expired = 0;
  sessionErrors.forbidden = [];
});

describe('request', () => {
  it('asks for JSON in the interface language, with an abort signal for the timeout', async () => {
    const fetchMock = answer({ status: 204 });
    const response = await request('/api/status');
    expect(response.status).toBe(204);
    const init = fetchMock.mock.calls[0]?.[1];
    const headers = new Headers(init?.headers);
    expect(headers.get('Accept-Language')).toBe('de');
    expect(headers.get('Accept')).toBe('application/json');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends a JSON body with its Content-Type', async () => {
    const fetchMock = answer({ status: 201 });
    await request('/api/users/u1/roles', { method: 'POST', json: { roleIds: ['r1'] } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"roleIds":["r1"]}');
  });

  it('gives up after 20 s, a time a caller may lengthen for a large body', async () => {
    answer({ status: 204 });
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    await request('/api/status');
    expect(timeout).toHaveBeenLastCalledWith(20_000);
    await request('/api/users/export', { timeoutMs: 600_000 });
    expect(timeout).toHaveBeenLastCalledWith(600_000);
    timeout.mockRestore();
  });

  it("keeps the caller's abort signal", async () => {
    const fetchMock = answer({ status: 204 });
    const controller = new AbortController();
    controller.abort();
    await request('/api/status', { signal: controller.signal });
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
  });

  it('turns a {code, message} body into an ApiError', async () => {
    answer({ status: 404, body: JSON.stringify({ code: 'entity.not_exists_with_id', message: 'No such role.' }) });
    const error = await failure(request('/api/roles/x'));
    expect([error.status, error.code, error.message]).toEqual([404, 'entity.not_exists_with_id', 'No such role.']);
  });

  it("keeps the server's request id of a refusal (X-Request-Id), for the user to quote to support", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ code: 'request.general', message: 'Failed.' }), {
            status: 500,
            headers: { 'X-Request-Id': 'req-42' },
          }),
      ),
    );
    expect((await failure(request('/api/me', { method: 'DELETE' }))).requestId).toBe('req-42');
    answer({ status: 502 });
    expect((await failure(request('/api/me'))).requestId).toBeUndefined();
  });

  it('falls back to the status text when the body is not an API error', async () => {
    answer({ status: 500, body: '<html>oops</html>', statusText: 'Internal Server Error' });
    const error = await failure(request('/api/roles'));
    expect([error.status, error.code, error.message]).toEqual([500, undefined, 'Internal Server Error']);
  });

  it("says 'unknown server error' in the interface language when nothing else is known", async () => {
    answer({ status: 502 });
    const error = await failure(request('/api/roles'));
    expect(error.message).toBe(deCommon.errors.unknown_server_error);
  });
});

describe('bearer token', () => {
  it('sends the signed-in user’s access token, and none when signed out', async () => {
    const fetchMock = answer({ status: 204 });
    await request('/api/roles');
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('Authorization')).toBeNull();
    signedInToken = 'token-123';
    await request('/api/roles');
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get('Authorization')).toBe('Bearer token-123');
  });
});

describe('session errors (spec §4, §6)', () => {
  it('starts a fresh sign-in on 401 instead of showing an error', async () => {
    answer({ status: 401, body: JSON.stringify({ code: 'auth.unauthorized', message: 'Token expired.' }) });
    await expect(request('/api/roles')).rejects.toThrow('signing in again');
    expect(sessionErrors.expired).toBe(1);
  });

  it("signs out on 403 auth.forbidden (with the alert) and on the message 'Insufficient permissions.'", async () => {
    answer({ status: 403, body: JSON.stringify({ code: 'auth.forbidden', message: 'Keine Berechtigung.' }) });
    expect((await failure(request('/api/roles'))).status).toBe(403);
    answer({ status: 403, body: JSON.stringify({ code: 'other', message: 'Insufficient permissions.' }) });
    await failure(request('/api/roles'));
    expect(sessionErrors.forbidden).toEqual([true, false]);
  });

  it('leaves other 403 answers to the caller', async () => {
    answer({ status: 403, body: JSON.stringify({ code: 'quota.exceeded', message: 'Over the limit.' }) });
    expect((await failure(request('/api/applications'))).code).toBe('quota.exceeded');
    expect(sessionErrors.forbidden).toEqual([]);
  });
});

describe('pages', () => {
  it('reads items and the Total-Number header', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify([{ id: 'a' }]), { status: 200, headers: { 'Total-Number': '41' } }),
      ),
    );
    const page = await requestPage('/api/roles', z.object({ id: z.string() }));
    expect(page).toEqual({ items: [{ id: 'a' }], total: 41, isTotalCapped: false });
  });

  it('says when the server capped the total (a lower bound, not the count)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('[]', {
            status: 200,
            headers: { 'Total-Number': '10000', 'Total-Number-Is-Capped': 'true' },
          }),
      ),
    );
    expect(await requestPage('/api/logs', z.object({ id: z.string() }))).toEqual({
      items: [],
      total: 10_000,
      isTotalCapped: true,
    });
  });

  it("fails with 'missing total number' when the header is absent", async () => {
    answer({ status: 200, body: '[]' });
    const error = await failure(requestPage('/api/roles', z.object({ id: z.string() })));
    expect(error.code).toBe('missing_total_number');
  });
});
