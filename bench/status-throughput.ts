// `status-throughput`: autocannon against the unauthenticated GET /api/status (10 connections, 10 s).
// autocannon records latency in whole milliseconds, so p50 reads 0 when requests take under 1 ms.
// The management API needs a bearer token that cannot be obtained yet, so it is not benched here.
import autocannon from 'autocannon';
import { type Bench, dataDir, log, round, startServer } from './lib.ts';

export const statusThroughput: Bench = {
  name: 'status-throughput',
  figures: ['status-throughput', 'status-p50', 'status-p99', 'status-errors'],
  async run() {
    const server = await startServer(await dataDir());
    try {
      log('status-throughput: autocannon, 10 connections, 10 s…');
      const result = await autocannon({ url: `${server.url}/api/status`, connections: 10, duration: 10 });
      const errors = result.errors + result.non2xx; // a timeout is counted in errors too
      const samples = [result.requests.average];
      return [
        {
          name: 'status-throughput',
          value: round(result.requests.average, 0),
          unit: 'req/s',
          budget: null,
          samples,
          details: { total: result.requests.total, latencyMeanMs: result.latency.average },
        },
        { name: 'status-p50', value: result.latency.p50, unit: 'ms', budget: null, samples: [result.latency.p50] },
        { name: 'status-p99', value: result.latency.p99, unit: 'ms', budget: null, samples: [result.latency.p99] },
        {
          name: 'status-errors',
          value: errors,
          unit: 'count',
          budget: null,
          samples: [errors],
          details: { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
        },
      ];
    } finally {
      await server.stop();
    }
  },
};
