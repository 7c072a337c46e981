/**
 * A worker thread of the script sandbox (sandbox.ts). It runs tenants' custom JWT scripts in QuickJS compiled to
 * WebAssembly: each run gets a fresh QuickJS runtime with a heap limit, a stack limit and a deadline checked by the
 * interpreter, and sees only what is put into it: the JSON input, `fetch` (a request to the pool through the message
 * port), and a silent `console`. QuickJS has no filesystem, process, module loader or network of its own; this file
 * imports nothing of the server.
 */
import { parentPort } from 'node:worker_threads';
import releaseVariant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten-core';
import type {
  FetchResponse,
  FromWorker,
  SandboxErrorName,
  SandboxInput,
  SandboxOutcome,
  ToWorker,
} from './sandbox-protocol.ts';

const port = parentPort;
if (!port) throw new Error('sandbox-worker.ts runs as a worker thread');
// The package's types describe its CommonJS entry; Node loads its ESM entry, whose default export is the variant.
const quickjs = await newQuickJSWASMModuleFromVariant(releaseVariant as unknown as QuickJSSyncVariant);

/**
 * Evaluated before the script: `fetch` over the host's door (the door itself is removed from the global object), a
 * Response-like answer, and a console that writes nowhere.
 */
const prelude = `(() => {
  const door = globalThis.__gatehouseFetch;
  delete globalThis.__gatehouseFetch;
  const headersOf = (init) => {
    const out = {};
    const given = init && init.headers;
    if (!given) return out;
    const pairs = Array.isArray(given) ? given : Object.entries(given);
    for (const [name, value] of pairs) out[String(name).toLowerCase()] = String(value);
    return out;
  };
  const fetch = async (url, init) => {
    const request = {
      url: String(url),
      method: String((init && init.method) || 'GET').toUpperCase(),
      headers: headersOf(init),
      body: init && init.body !== undefined && init.body !== null ? String(init.body) : undefined,
    };
    const answer = JSON.parse(await door(JSON.stringify(request)));
    if (!answer.ok) throw new TypeError('fetch failed: ' + answer.message);
    const headers = new Map(Object.entries(answer.headers));
    return Object.freeze({
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      headers: Object.freeze({ get: (name) => headers.get(String(name).toLowerCase()) ?? null }),
      text: async () => answer.body,
      json: async () => JSON.parse(answer.body),
    });
  };
  const quiet = () => undefined;
  Object.defineProperty(globalThis, 'fetch', { value: fetch, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'console', {
    value: Object.freeze({ log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet }),
    writable: true,
    configurable: true,
  });
})();`;

/** Calls the script's function with the parsed input and an \`api\`; answers the claims as JSON text. */
const runner = `(async (inputText) => {
  if (typeof getCustomJwtClaims !== 'function') {
    throw new TypeError('The script must define a function named getCustomJwtClaims.');
  }
  class AccessDenied extends Error {
    constructor(message) {
      super(message === undefined ? '' : String(message));
      this.name = 'AccessDenied';
    }
  }
  const api = Object.freeze({ denyAccess: (message) => { throw new AccessDenied(message); } });
  const input = JSON.parse(inputText);
  const claims = await getCustomJwtClaims({
    token: input.token,
    context: input.context,
    environmentVariables: input.environmentVariables,
    api,
  });
  if (claims === undefined || claims === null) return '{}';
  if (typeof claims !== 'object' || Array.isArray(claims)) {
    throw new TypeError('getCustomJwtClaims must return an object of claims.');
  }
  return JSON.stringify(claims);
})`;

type Failure = Extract<SandboxOutcome, { ok: false }>;
const failure = (name: SandboxErrorName | string, message: string): Failure => ({
  ok: false,
  error: { name, message },
});

/** Reads a QuickJS error into a name and message the console and the audit log show. */
function describeError(context: QuickJSContext, handle: QuickJSHandle): Failure {
  const dumped: unknown = context.dump(handle);
  const record = typeof dumped === 'object' && dumped !== null ? (dumped as Record<string, unknown>) : {};
  const name = typeof record.name === 'string' ? record.name : 'Error';
  const message = (typeof record.message === 'string' ? record.message : String(dumped)).slice(0, 1000);
  if (name === 'InternalError' && message === 'interrupted') return failure('TimeoutError', 'the script ran too long');
  if (/out of memory/i.test(message)) return failure('MemoryLimitError', 'the script used too much memory');
  if (name === 'InternalError' && /stack overflow/i.test(message)) return failure('Error', 'stack overflow');
  return failure(name, message);
}

let nextFetchId = 1;
const fetchWaiters = new Map<number, (response: FetchResponse) => void>();

/** One run; `healthy` false when it was cut off mid-way and the worker should be replaced. */
async function run(id: number, job: SandboxInput): Promise<{ outcome: SandboxOutcome; healthy: boolean }> {
  const deadline = Date.now() + job.limits.timeoutMs;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(job.limits.memoryBytes);
  runtime.setMaxStackSize(job.limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const context = runtime.newContext();
  const pending = new Set<QuickJSDeferredPromise>();
  let fetches = 0;

  const door = context.newFunction('__gatehouseFetch', (requestHandle) => {
    const deferred = context.newPromise();
    pending.add(deferred);
    const settle = (response: FetchResponse) => {
      if (!deferred.alive) return;
      pending.delete(deferred);
      const text = context.newString(JSON.stringify(response));
      deferred.resolve(text);
      text.dispose();
      deferred.dispose();
      runtime.executePendingJobs();
    };
    fetches += 1;
    if (fetches > job.limits.maxFetches) {
      settle({ ok: false, message: `at most ${job.limits.maxFetches} requests per run` });
    } else {
      const fetchId = nextFetchId++;
      fetchWaiters.set(fetchId, settle);
      const message: FromWorker = { type: 'fetch', id, fetchId, request: JSON.parse(context.getString(requestHandle)) };
      port?.postMessage(message);
    }
    return deferred.handle;
  });
  context.setProp(context.global, '__gatehouseFetch', door);
  door.dispose();

  const evaluate = (code: string, filename: string): Failure | QuickJSHandle => {
    const result = context.evalCode(code, filename);
    if (result.error) {
      const described = describeError(context, result.error);
      result.error.dispose();
      return described;
    }
    return result.value;
  };

  let healthy = true;
  try {
    const steps = [
      [prelude, 'prelude.js'],
      [job.script, 'script.js'],
    ] as const;
    for (const [code, filename] of steps) {
      const evaluated = evaluate(code, filename);
      if ('ok' in evaluated) {
        healthy = evaluated.error.name !== 'TimeoutError' && evaluated.error.name !== 'MemoryLimitError';
        return { outcome: evaluated, healthy };
      }
      evaluated.dispose();
    }
    const entry = evaluate(runner, 'runner.js');
    if ('ok' in entry) return { outcome: entry, healthy };
    const inputHandle = context.newString(job.input);
    const called = context.callFunction(entry, context.undefined, inputHandle);
    inputHandle.dispose();
    entry.dispose();
    if (called.error) {
      const described = describeError(context, called.error);
      called.error.dispose();
      return { outcome: described, healthy: false };
    }
    const settled = context.resolvePromise(called.value);
    called.value.dispose();
    runtime.executePendingJobs();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()) + 20);
    });
    const result = await Promise.race([settled, expired]);
    clearTimeout(timer);
    if (result === 'expired') {
      healthy = false;
      return { outcome: failure('TimeoutError', 'the script ran too long'), healthy };
    }
    if (result.error) {
      const described = describeError(context, result.error);
      result.error.dispose();
      healthy = described.error.name !== 'TimeoutError' && described.error.name !== 'MemoryLimitError';
      return { outcome: described, healthy };
    }
    const text = context.getString(result.value);
    result.value.dispose();
    if (text.length > job.limits.maxResultBytes) {
      return {
        outcome: failure('InvalidResultError', `the claims exceed ${job.limits.maxResultBytes} bytes`),
        healthy,
      };
    }
    const claims: unknown = JSON.parse(text);
    return { outcome: { ok: true, claims: claims as Record<string, unknown> }, healthy };
  } catch (error) {
    // QuickJS itself failed (for example its allocator gave up): this worker is replaced.
    healthy = false;
    return { outcome: failure('Error', error instanceof Error ? error.message : String(error)), healthy };
  } finally {
    if (healthy) {
      for (const deferred of pending) if (deferred.alive) deferred.dispose();
      context.dispose();
      runtime.dispose();
    }
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'fetch-result') {
    const waiter = fetchWaiters.get(message.fetchId);
    fetchWaiters.delete(message.fetchId);
    waiter?.(message.response);
    return;
  }
  void run(message.id, message.job).then(({ outcome, healthy }) => {
    port.postMessage({ type: 'done', id: message.id, outcome, retire: !healthy } satisfies FromWorker);
  });
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
