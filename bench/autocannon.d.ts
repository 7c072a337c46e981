// The part of autocannon's API the benches use (the package ships no types).
declare module 'autocannon' {
  type Histogram = { average: number; total: number; p50: number; p90: number; p99: number; max: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number };
  /** The raw request a `setupRequest` hook may change (e.g. a fresh body each time). */
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type Options = {
    url: string;
    connections: number;
    duration: number;
    method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    /** Each connection cycles through these in order. */
    requests?: (Request & {
      setupRequest?: (request: Request) => Request;
      /** Called with each answer's status and body (as text). */
      onResponse?: (status: number, body: string) => void;
    })[];
    /** Seconds before a request counts as timed out (default 10). */
    timeout?: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
