import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUEUED_PER_TENANT, ScriptSandbox } from '../src/services/jwt-customizer/sandbox.ts';
import { allowAllOutbound } from '../src/services/outbound.ts';
import { startHttpReceiver } from './support/http-receiver.ts';

/**
 * The custom JWT sandbox on its own (docs/custom-jwt.md): scripts run in QuickJS in worker threads; these are the
 * escapes an attacker with a tenant's console would try, each refused, with the sandbox (and the event loop) still
 * serving afterwards.
 */

const wrap = (body: string) => `const getCustomJwtClaims = async ({ token, context, environmentVariables, api }) => {
${body}
};`;

let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let sandbox: ScriptSandbox;
const input = {
  token: { sub: 'u1', scope: 'read' },
  context: { user: { id: 'u1' } },
  environmentVariables: { A: 'x' },
};

beforeAll(async () => {
  receiver = await startHttpReceiver();
  sandbox = new ScriptSandbox({
    fetchAllowList: [receiver.url],
    outbound: allowAllOutbound,
    limits: { timeoutMs: 700, memoryBytes: 16 * 1024 * 1024 },
  });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('the custom JWT sandbox', () => {
  it('runs the script with the token, context and variables and answers its claims', async () => {
    const outcome = await sandbox.run(
      wrap('return { user: context.user.id, sub_seen: token.sub, a: environmentVariables.A, n: [1, { b: true }] };'),
      input,
    );
    expect(outcome).toEqual({ ok: true, claims: { user: 'u1', sub_seen: 'u1', a: 'x', n: [1, { b: true }] } });
  });

  it('accepts a function declaration and an empty answer', async () => {
    expect(await sandbox.run('function getCustomJwtClaims() { return undefined; }', input)).toEqual({
      ok: true,
      claims: {},
    });
  });

  it('has no process, require, import, filesystem or host globals, whatever the constructor tricks', async () => {
    const probes = {
      process: 'typeof process',
      require: 'typeof require',
      module: 'typeof module',
      buffer: 'typeof Buffer',
      setTimeout: 'typeof setTimeout',
      worker: 'typeof postMessage',
      std: 'typeof std + typeof os',
      constructorTrick: `(() => { const g = (function () {}).constructor('return this')(); return typeof g.process; })()`,
      asyncConstructorTrick: `(() => { const g = (async () => {}).constructor('return globalThis')(); return typeof g; })()`,
      protoTrick: `typeof ({}).__proto__.constructor.constructor('return process')`,
      hostDoor: 'typeof __gatehouseFetch',
      globals:
        "Object.getOwnPropertyNames(globalThis).filter((n) => /process|require|import|fs|env|Worker|gatehouse/i.test(n)).join(',')",
    };
    const body = `return { ${Object.entries(probes)
      .map(([key, expression]) => `${key}: ${expression}`)
      .join(', ')} };`;
    const outcome = await sandbox.run(wrap(body), input);
    expect(outcome).toEqual({
      ok: true,
      claims: {
        process: 'undefined',
        require: 'undefined',
        module: 'undefined',
        buffer: 'undefined',
        setTimeout: 'undefined',
        worker: 'undefined',
        std: 'undefinedundefined',
        constructorTrick: 'undefined',
        asyncConstructorTrick: 'object',
        protoTrick: 'function',
        hostDoor: 'undefined',
        globals: '',
      },
    });
    // Calling what the prototype trick returns only reaches the sandbox's own global object.
    const reached = await sandbox.run(
      wrap(
        "const g = ({}).__proto__.constructor.constructor('return this')(); return { p: typeof g.process, env: typeof g.env };",
      ),
      input,
    );
    expect(reached).toEqual({ ok: true, claims: { p: 'undefined', env: 'undefined' } });
  });

  it('refuses dynamic import and require', async () => {
    const imported = await sandbox.run(wrap("const fs = await import('node:fs'); return { ok: typeof fs };"), input);
    expect(imported.ok).toBe(false);
    const required = await sandbox.run(wrap("return { fs: require('fs') };"), input);
    expect(required).toMatchObject({ ok: false, error: { name: 'ReferenceError' } });
  });

  it('sees only the variables it is given, not the server environment', async () => {
    process.env.GATEHOUSE_SANDBOX_PROBE = 'secret-of-the-server';
    const outcome = await sandbox.run(
      wrap(
        'return { keys: Object.keys(environmentVariables), probe: environmentVariables.GATEHOUSE_SANDBOX_PROBE ?? null };',
      ),
      input,
    );
    delete process.env.GATEHOUSE_SANDBOX_PROBE;
    expect(outcome).toEqual({ ok: true, claims: { keys: ['A'], probe: null } });
  });

  it('stops an infinite loop at its deadline, and the event loop keeps serving meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 20);
    const outcome = await sandbox.run(wrap('while (true) {}'), input);
    clearInterval(ticker);
    expect(outcome).toEqual({ ok: false, error: { name: 'TimeoutError', message: 'the script ran too long' } });
    // The loop ran for the whole deadline (700 ms) in a worker: the server's own timers kept firing.
    expect(ticks).toBeGreaterThan(5);
    expect(await sandbox.run(wrap('return { after: true };'), input)).toEqual({ ok: true, claims: { after: true } });
  });

  it('stops a loop at the top level of the script and a promise that never settles', async () => {
    expect(await sandbox.run(`for (;;) {}\n${wrap('return {};')}`, input)).toMatchObject({
      ok: false,
      error: { name: 'TimeoutError' },
    });
    expect(await sandbox.run(wrap('await new Promise(() => {}); return {};'), input)).toMatchObject({
      ok: false,
      error: { name: 'TimeoutError' },
    });
  });

  it('stops a memory bomb at its limit', async () => {
    const outcome = await sandbox.run(
      wrap("const a = []; for (;;) a.push('x'.repeat(1 << 16) + a.length); return {};"),
      input,
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(['MemoryLimitError', 'TimeoutError']).toContain(outcome.error.name);
    const deep = await sandbox.run(wrap('const f = (n) => f(n + 1) + 1; return { n: f(0) };'), input);
    expect(deep).toMatchObject({ ok: false, error: { message: 'stack overflow' } });
    expect(await sandbox.run(wrap('return { after: 1 };'), input)).toEqual({ ok: true, claims: { after: 1 } });
  });

  it('answers api.denyAccess as AccessDenied with its message', async () => {
    expect(await sandbox.run(wrap("api.denyAccess('Suspended customer'); return {};"), input)).toEqual({
      ok: false,
      error: { name: 'AccessDenied', message: 'Suspended customer' },
    });
  });

  it('names syntax errors, thrown errors and bad results', async () => {
    expect(await sandbox.run('const getCustomJwtClaims = async ( => {};', input)).toMatchObject({
      ok: false,
      error: { name: 'SyntaxError' },
    });
    expect(await sandbox.run(wrap("throw new Error('boom');"), input)).toEqual({
      ok: false,
      error: { name: 'Error', message: 'boom' },
    });
    expect(await sandbox.run('const claims = {};', input)).toMatchObject({
      ok: false,
      error: { name: 'TypeError', message: expect.stringContaining('getCustomJwtClaims') },
    });
    expect(await sandbox.run(wrap("return 'not an object';"), input)).toMatchObject({
      ok: false,
      error: { name: 'TypeError' },
    });
    expect(await sandbox.run(wrap("return { big: 'x'.repeat(40000) };"), input)).toMatchObject({
      ok: false,
      error: { name: 'InvalidResultError' },
    });
  });

  it('fetches from an allow-listed origin only, without following redirects', async () => {
    receiver.respondWith(200, JSON.stringify({ tier: 'gold' }));
    const allowed = await sandbox.run(
      wrap(
        `const r = await fetch('${receiver.url}/tier?u=' + token.sub, { method: 'POST', headers: { 'x-key': environmentVariables.A }, body: 'hi' });
         const data = await r.json();
         return { tier: data.tier, status: r.status };`,
      ),
      input,
    );
    expect(allowed).toEqual({ ok: true, claims: { tier: 'gold', status: 200 } });
    expect(receiver.received.at(-1)).toMatchObject({ method: 'POST', path: '/tier?u=u1', body: 'hi' });
    expect(receiver.received.at(-1)?.headers['x-key']).toBe('x');

    const before = receiver.received.length;
    for (const url of [
      'http://127.0.0.1:1/elsewhere',
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
    ]) {
      const refused = await sandbox.run(wrap(`await fetch('${url}'); return {};`), input);
      expect(refused).toMatchObject({
        ok: false,
        error: { name: 'TypeError', message: expect.stringContaining('fetch failed') },
      });
    }
    expect(receiver.received.length).toBe(before);
  });

  it('runs scripts side by side and queues the rest', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => sandbox.run(wrap(`return { index: ${index} };`), input)),
    );
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.claims.index : -1))).toEqual(
      Array.from({ length: 12 }, (_, index) => index),
    );
  });
});

describe('fair shares between tenants (issue 39, item 5)', () => {
  it("one tenant's looping scripts do not hold up another tenant's run", async () => {
    const shared = new ScriptSandbox({
      fetchAllowList: [],
      outbound: allowAllOutbound,
      size: 2,
      limits: { timeoutMs: 300 },
    });
    try {
      const finished: string[] = [];
      const loops = Array.from({ length: 6 }, (_, index) =>
        shared.run(wrap('while (true) {}'), input, 'greedy').then((outcome) => {
          finished.push(`greedy ${index}`);
          return outcome;
        }),
      );
      const quick = shared.run(wrap('return { quick: true };'), input, 'polite').then((outcome) => {
        finished.push('polite');
        return outcome;
      });
      expect(await quick).toEqual({ ok: true, claims: { quick: true } });
      // The greedy tenant holds at most one of the two workers: the polite run took the other at once, before any
      // loop reached its deadline.
      expect(finished, 'the polite run finished before any loop').toEqual(['polite']);
      const outcomes = await Promise.all(loops);
      expect(outcomes.every((outcome) => !outcome.ok && outcome.error.name === 'TimeoutError')).toBe(true);
      expect(finished.slice(1), 'the loops ran one at a time, in order').toEqual(
        Array.from({ length: 6 }, (_, index) => `greedy ${index}`),
      );
    } finally {
      await shared.close();
    }
  });

  it("caps each tenant's waiting runs, leaving room for the others", async () => {
    const shared = new ScriptSandbox({ fetchAllowList: [], outbound: allowAllOutbound, size: 1 });
    try {
      const slow = wrap('await new Promise((resolve) => setTimeout(resolve, 50)); return {};');
      const burst = Array.from({ length: MAX_QUEUED_PER_TENANT + 5 }, () => shared.run(slow, input, 'burst'));
      const other = shared.run(wrap('return { other: true };'), input, 'other');
      const outcomes = await Promise.all(burst);
      const refused = outcomes.filter((outcome) => !outcome.ok && /waiting/.test(outcome.error.message));
      // The worker is still starting: the tenant's queue holds its cap and the rest are refused at once.
      expect(refused.length).toBe(5);
      expect(await other, "the other tenant's run was queued and ran").toEqual({ ok: true, claims: { other: true } });
    } finally {
      await shared.close();
    }
  });
});
