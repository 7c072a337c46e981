import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import deCommon from '../i18n/locales/de/common.json';
import { ApiError, request } from './client.ts';

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
vi.mock('../auth/session.ts', () => ({ accessToken: async () => signedInToken }));

beforeAll(async () => {
  await i18n.init({ lng: 'de', resources: { de: { common: deCommon } }, defaultNS: 'common' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  signedInToken = undefined;
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

  it("keeps the caller's abort signal", async () => {
    const fetchMock = answer({ status: 204 });
    const controller = new AbortController();
    controller.abort();
    await request('/api/status', { signal: controller.signal });
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
  });

  it('turns a {code, message} body into an ApiError', async () => {
    answer({ status: 404, body: JSON.stringify({ code: 'entity.not_found', message: 'No such role.' }) });
    const error = await failure(request('/api/roles/x'));
    expect([error.status, error.code, error.message]).toEqual([404, 'entity.not_found', 'No such role.']);
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
