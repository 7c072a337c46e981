/** One key's failures in the current fixed window. */
type Window = { failures: number; resetAt: number };
/** Beyond this many tracked keys, expired windows are dropped, then the oldest, so memory stays bounded. */
const MAX_TRACKED_KEYS = 50_000;

/** A key and how many failures it may have per window. */
export type ThrottleKey = readonly [key: string, limit: number];

/**
 * Fixed-window failure counters in the memory of one server process (client secrets at the token endpoint, passwords
 * per IP at sign-in). The limits are per process, so N processes allow N times the guesses (still few per second).
 */
export class FailureThrottle {
  readonly #windows = new Map<string, Window>();
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(windowMs: number, now = Date.now) {
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Seconds until every key is under its limit again, or 0 when none is over. */
  retryAfter(keys: readonly ThrottleKey[]): number {
    const now = this.#now();
    let wait = 0;
    for (const [key, limit] of keys) {
      const window = this.#windows.get(key);
      if (window && window.resetAt > now && window.failures >= limit) {
        wait = Math.max(wait, Math.ceil((window.resetAt - now) / 1000));
      }
    }
    return wait;
  }

  fail(keys: readonly ThrottleKey[]): void {
    const now = this.#now();
    for (const [key] of keys) {
      const window = this.#windows.get(key);
      if (window && window.resetAt > now) window.failures++;
      else this.#windows.set(key, { failures: 1, resetAt: now + this.#windowMs });
    }
    if (this.#windows.size > MAX_TRACKED_KEYS) this.#prune(now);
  }

  #prune(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    for (const key of this.#windows.keys()) {
      if (this.#windows.size <= MAX_TRACKED_KEYS / 2) break;
      this.#windows.delete(key);
    }
  }
}
