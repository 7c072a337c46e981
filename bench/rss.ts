// `rss`: resident memory of the idle server process (node itself, no wrapper), 5 s after it is ready.
import { readFileSync } from 'node:fs';
import { type Bench, dataDir, log, round, sleep, startServer } from './lib.ts';

/** A /proc/<pid>/status field in kB (really KiB), as bytes. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]) * 1024;
}

export const rss: Bench = {
  name: 'rss',
  figures: ['rss'],
  async run() {
    const server = await startServer(await dataDir());
    try {
      const pid = server.child.pid;
      if (!pid) throw new Error('server has no pid');
      log('rss: server ready, idling 5 s…');
      await sleep(5000);
      const mb = statusBytes(pid, 'VmRSS') / 1e6;
      const peak = statusBytes(pid, 'VmHWM') / 1e6;
      return [
        {
          name: 'rss',
          value: round(mb, 1),
          unit: 'MB',
          budget: 150,
          samples: [round(mb, 1)],
          details: { peakMB: round(peak, 1) },
        },
      ];
    } finally {
      await server.stop();
    }
  },
};
