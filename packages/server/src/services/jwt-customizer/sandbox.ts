import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type OutboundPolicy, outboundFetch } from '../outbound.ts';
import type {
  FetchRequest,
  FetchResponse,
  FromWorker,
  SandboxInput,
  SandboxLimits,
  SandboxOutcome,
  ToWorker,
} from './sandbox-protocol.ts';

export type { SandboxOutcome } from './sandbox-protocol.ts';

export const defaultSandboxLimits: SandboxLimits = {
  timeoutMs: 3000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxResultBytes: 32 * 1024,
  maxFetches: 5,
};

/** Largest response body a script's fetch reads. */
const MAX_FETCH_BODY_BYTES = 1024 * 1024;
/** Runs waiting for a worker beyond this are refused at once (the token then follows "block issuance on error"). */
const MAX_QUEUED = 500;
/** …and beyond this many of one tenant's: a tenant's burst fills its own queue, not everyone's. */
export const MAX_QUEUED_PER_TENANT = 50;
/** How long a tenant's use of the workers counts against it when the sandbox picks whose run goes next. */
const USAGE_WINDOW_MS = 10_000;
/** Time past the deadline after which a worker that has not answered is terminated. */
const WATCHDOG_GRACE_MS = 1000;

export type ScriptSandboxOptions = {
  /**
   * Origins (`https://api.example.com`) a script's `fetch` may reach (CUSTOM_JWT_FETCH_ALLOW_LIST); empty: none.
   * Requests also pass the outbound policy (private addresses refused in cloud) and never follow redirects.
   */
  fetchAllowList: readonly string[];
  outbound: OutboundPolicy;
  /** Worker threads (default: up to 2). */
  size?: number;
  limits?: Partial<SandboxLimits>;
};

/** The worker's code: the TypeScript next to this file, or the bundled file next to the server bundle. */
const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./sandbox-worker.ts', import.meta.url)
  : new URL('./jwt-sandbox-worker.js', import.meta.url);

type Job = {
  id: number;
  /** Whose script: runs are shared out between tenants (fair shares, issue 39 item 5). */
  tenantId: string;
  input: SandboxInput;
  resolve: (outcome: SandboxOutcome) => void;
  /** When a worker started it. */
  startedAt?: number;
};

type Slot = {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  watchdog: NodeJS.Timeout | undefined;
  /** The run's deadline: fetches get only the time left. */
  deadline: number;
};

/**
 * Runs custom JWT scripts (docs/custom-jwt.md). Scripts run in QuickJS (WebAssembly) inside worker threads, so a
 * script that loops or allocates until its limit holds up neither the server's event loop nor other requests; a
 * worker that does not answer by its deadline is terminated and replaced. The script's only way out is `fetch`,
 * relayed here and checked against the allow-list.
 *
 * Fair shares between tenants (issue 39, item 5: one tenant's six looping scripts made another's 64 ms run take
 * 8.9 s): each tenant has its own queue (at most {@link MAX_QUEUED_PER_TENANT} runs waiting); one tenant runs on at
 * most all workers but one, so another tenant's run always finds one free or about to be; and when workers free up,
 * the tenant that used them least over the last {@link USAGE_WINDOW_MS} goes first. A tenant over its share waits
 * behind its own runs.
 */
export class ScriptSandbox {
  readonly #slots: Slot[] = [];
  /** Waiting runs by tenant, in arrival order. */
  readonly #queues = new Map<string, Job[]>();
  #queued = 0;
  /** Runs in progress by tenant. */
  readonly #running = new Map<string, number>();
  /** Finished runs' worker time by tenant, decaying with the usage window: `{ms, at}` (ms as of `at`). */
  readonly #usage = new Map<string, { ms: number; at: number }>();
  readonly #size: number;
  readonly #limits: SandboxLimits;
  readonly #allowList: ReadonlySet<string>;
  readonly #fetch: ReturnType<typeof outboundFetch>;
  #nextId = 1;
  #closed = false;

  constructor(options: ScriptSandboxOptions) {
    this.#size = options.size ?? Math.max(1, Math.min(2, availableParallelism()));
    this.#limits = { ...defaultSandboxLimits, ...options.limits };
    this.#allowList = new Set(options.fetchAllowList.map((origin) => new URL(origin).origin));
    this.#fetch = outboundFetch(options.outbound);
  }

  get limits(): SandboxLimits {
    return this.#limits;
  }

  /** Runs `script`'s `getCustomJwtClaims` with the input, as `tenantId`'s; never rejects. */
  run(
    script: string,
    input: { token: unknown; context: unknown; environmentVariables: unknown },
    tenantId = '',
  ): Promise<SandboxOutcome> {
    if (this.#closed) return Promise.resolve({ ok: false, error: { name: 'Error', message: 'the sandbox is closed' } });
    const queue = this.#queues.get(tenantId) ?? [];
    if (this.#queued >= MAX_QUEUED || queue.length >= MAX_QUEUED_PER_TENANT) {
      return Promise.resolve({ ok: false, error: { name: 'Error', message: 'too many scripts are waiting to run' } });
    }
    return new Promise((resolve) => {
      queue.push({
        id: this.#nextId++,
        tenantId,
        input: { script, input: JSON.stringify(input), limits: this.#limits },
        resolve,
      });
      this.#queues.set(tenantId, queue);
      this.#queued += 1;
      this.#dispatch();
    });
  }

  /** Stops the workers; runs in progress answer with an error. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const queue of this.#queues.values()) {
      for (const job of queue.splice(0)) job.resolve({ ok: false, error: { name: 'Error', message: 'closed' } });
    }
    this.#queues.clear();
    this.#queued = 0;
    await Promise.all(this.#slots.splice(0).map((slot) => this.#retire(slot)));
  }

  #dispatch(): void {
    while (this.#queued > 0) {
      const slot = this.#slots.find((candidate) => candidate.ready && !candidate.job);
      if (!slot) {
        if (this.#slots.length < this.#size) this.#spawn();
        return;
      }
      const job = this.#next();
      if (!job) return;
      this.#start(slot, job);
    }
  }

  /**
   * The run to start on a free worker: from the tenants with runs waiting and below their share of workers, the one
   * that used the workers least lately (ties: the earliest waiting run). Undefined when every waiting tenant is at
   * its share (a worker stays free for a tenant that comes next).
   */
  #next(): Job | undefined {
    const share = Math.max(1, this.#size - 1);
    const now = Date.now();
    let best: { queue: Job[]; used: number; first: number } | undefined;
    for (const [tenantId, queue] of this.#queues) {
      const [first] = queue;
      if (!first || (this.#running.get(tenantId) ?? 0) >= share) continue;
      const used = this.#recentUse(tenantId, now);
      if (!best || used < best.used || (used === best.used && first.id < best.first)) {
        best = { queue, used, first: first.id };
      }
    }
    const job = best?.queue.shift();
    if (!job) return undefined;
    if (best?.queue.length === 0) this.#queues.delete(job.tenantId);
    this.#queued -= 1;
    return job;
  }

  /**
   * Worker time a tenant used lately: its finished runs' time, decaying by e every usage window (one number per
   * tenant, however many runs), and the time of its runs still in progress.
   */
  #recentUse(tenantId: string, now: number): number {
    const running = this.#slots.reduce(
      (sum, slot) => sum + (slot.job?.tenantId === tenantId && slot.job.startedAt ? now - slot.job.startedAt : 0),
      0,
    );
    return this.#decayedUse(tenantId, now) + running;
  }

  #decayedUse(tenantId: string, now: number): number {
    const usage = this.#usage.get(tenantId);
    if (!usage) return 0;
    const ms = usage.ms * Math.exp(-(now - usage.at) / USAGE_WINDOW_MS);
    // Forgotten once it no longer matters: the map holds the tenants of the last minute or so.
    if (ms < 1) this.#usage.delete(tenantId);
    return ms < 1 ? 0 : ms;
  }

  #start(slot: Slot, job: Job): void {
    job.startedAt = Date.now();
    this.#running.set(job.tenantId, (this.#running.get(job.tenantId) ?? 0) + 1);
    slot.job = job;
    slot.deadline = Date.now() + job.input.limits.timeoutMs;
    slot.watchdog = setTimeout(() => {
      // The worker did not answer in time (a run QuickJS could not interrupt): it is terminated and replaced.
      this.#finish(slot, { ok: false, error: { name: 'TimeoutError', message: 'the script ran too long' } });
      void this.#retire(slot);
      this.#dispatch();
    }, job.input.limits.timeoutMs + WATCHDOG_GRACE_MS);
    slot.watchdog.unref();
    slot.worker.postMessage({ type: 'run', id: job.id, job: job.input } satisfies ToWorker);
  }

  #finish(slot: Slot, outcome: SandboxOutcome): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.watchdog);
    slot.job = undefined;
    slot.watchdog = undefined;
    const now = Date.now();
    const running = (this.#running.get(job.tenantId) ?? 1) - 1;
    if (running > 0) this.#running.set(job.tenantId, running);
    else this.#running.delete(job.tenantId);
    this.#usage.set(job.tenantId, {
      ms: this.#decayedUse(job.tenantId, now) + (now - (job.startedAt ?? now)),
      at: now,
    });
    job.resolve(outcome);
  }

  #spawn(): void {
    const worker = new Worker(workerUrl, {
      execArgv: [],
      env: {},
      // The worker's own JavaScript heap (QuickJS's heap is a separate WebAssembly memory, limited per run).
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: undefined, watchdog: undefined, deadline: 0 };
    this.#slots.push(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        slot.ready = true;
        this.#dispatch();
      } else if (message.type === 'done') {
        if (slot.job?.id === message.id) this.#finish(slot, message.outcome);
        if (message.retire) void this.#retire(slot);
        this.#dispatch();
      } else if (message.type === 'fetch') {
        if (slot.job?.id !== message.id) return;
        void this.#relayFetch(message.request, slot.deadline).then((response) => {
          if (slot.job?.id !== message.id) return;
          slot.worker.postMessage({
            type: 'fetch-result',
            id: message.id,
            fetchId: message.fetchId,
            response,
          } satisfies ToWorker);
        });
      }
    });
    const lost = (error?: unknown) => {
      this.#finish(slot, {
        ok: false,
        error: { name: 'Error', message: error instanceof Error ? error.message : 'the sandbox stopped' },
      });
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
      if (!this.#closed) this.#dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', () => lost());
  }

  async #retire(slot: Slot): Promise<void> {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    this.#finish(slot, { ok: false, error: { name: 'Error', message: 'the sandbox stopped' } });
    await slot.worker.terminate();
  }

  /** A script's fetch: only to allow-listed origins, past the outbound policy, no redirects, bounded in time and size. */
  async #relayFetch(request: FetchRequest, deadline: number): Promise<FetchResponse> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { ok: false, message: 'invalid URL' };
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !this.#allowList.has(url.origin)) {
      return { ok: false, message: `${url.origin} is not on the allow-list` };
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { ok: false, message: 'no time left' };
    try {
      const response = await this.#fetch(url, {
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(remaining),
      });
      const body = await readCapped(response.body, MAX_FETCH_BODY_BYTES);
      if (body === undefined) return { ok: false, message: `the response exceeds ${MAX_FETCH_BODY_BYTES} bytes` };
      return { ok: true, status: response.status, headers: Object.fromEntries(response.headers), body };
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
    }
  }
}

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
