/**
 * The messages between the script sandbox's pool (sandbox.ts, the server's thread) and its workers
 * (sandbox-worker.ts). The message port is the worker's only door: the script's `fetch` is a request through it,
 * answered by the pool after its allow-list check.
 */

export type SandboxLimits = {
  /** Wall-clock time for the whole run, fetches included; CPU is cut at the same deadline. */
  timeoutMs: number;
  /** QuickJS heap limit. */
  memoryBytes: number;
  /** QuickJS stack limit (deep recursion). */
  stackBytes: number;
  /** Largest JSON the script may return. */
  maxResultBytes: number;
  /** Most fetches one run may make. */
  maxFetches: number;
};

export type SandboxInput = {
  script: string;
  /** JSON text of `{ token, context, environmentVariables }`, parsed inside the sandbox. */
  input: string;
  limits: SandboxLimits;
};

/** Why a run failed; `AccessDenied` is the script's own `api.denyAccess(message)`. */
export type SandboxErrorName =
  | 'AccessDenied'
  | 'SyntaxError'
  | 'TimeoutError'
  | 'MemoryLimitError'
  | 'InvalidResultError'
  | 'FetchError'
  | 'Error';

export type SandboxOutcome =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; error: { name: SandboxErrorName | string; message: string } };

export type FetchRequest = { url: string; method: string; headers: Record<string, string>; body: string | undefined };
export type FetchResponse =
  | { ok: true; status: number; headers: Record<string, string>; body: string }
  | { ok: false; message: string };

export type ToWorker =
  | { type: 'run'; id: number; job: SandboxInput }
  | { type: 'fetch-result'; id: number; fetchId: number; response: FetchResponse };

export type FromWorker =
  | { type: 'ready' }
  /** `retire`: the run was cut off mid-way and the worker's QuickJS state is suspect: the pool replaces it. */
  | { type: 'done'; id: number; outcome: SandboxOutcome; retire: boolean }
  | { type: 'fetch'; id: number; fetchId: number; request: FetchRequest };
