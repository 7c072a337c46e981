// `start`: a second `npm start` (deps installed, console built, database migrated) until the Console line.
// `server-cold-start`: the server alone, from spawn until GET /api/status answers 204.
import { join } from 'node:path';
import {
  type Bench,
  binDir,
  childEnv,
  dataDir,
  freePort,
  log,
  median,
  root,
  round,
  secondsSince,
  serverEntry,
  serverNodeFlags,
  sleep,
  spawnGroup,
  stopGroup,
  waitForOutput,
} from './lib.ts';

const runs = 5;

async function startOnce(dir: string): Promise<{ seconds: number; output: string }> {
  const port = await freePort();
  const start = performance.now();
  const spawned = spawnGroup(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    env: childEnv({ PORT: String(port), DATA_DIR: dir }),
  });
  try {
    await waitForOutput(spawned, /^Console: http:\/\/\S+\/console$/m);
    return { seconds: secondsSince(start), output: spawned.output() };
  } finally {
    await stopGroup(spawned.child);
  }
}

export const start: Bench = {
  name: 'start',
  figures: ['start'],
  async run() {
    const dir = await dataDir();
    log('start: warm-up npm start (installs or builds if anything is stale)…');
    await startOnce(dir);
    const samples: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const { seconds, output } = await startOnce(dir);
      if (/Installing dependencies|Building the console/.test(output))
        log('start: this run installed or built (sources changed meanwhile)');
      samples.push(round(seconds, 3));
      log(`start: run ${i}/${runs} ${samples.at(-1)} s`);
    }
    return [{ name: 'start', value: median(samples), unit: 's', budget: 5, samples }];
  },
};

async function statusAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/status`, { signal: AbortSignal.timeout(1000) });
    return response.status === 204;
  } catch {
    return false;
  }
}

export const serverColdStart: Bench = {
  name: 'server-cold-start',
  figures: ['server-cold-start'],
  async run() {
    const dir = await dataDir();
    const samples: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const port = await freePort();
      const start = performance.now();
      const env = childEnv({ PORT: String(port), DATA_DIR: dir });
      const spawned = spawnGroup(join(binDir, 'node'), [...serverNodeFlags(env), serverEntry], { env });
      try {
        while (!(await statusAnswers(`http://localhost:${port}`))) {
          if (spawned.child.exitCode !== null) throw new Error(`server exited:\n${spawned.output()}`);
          if (performance.now() - start > 60_000) throw new Error(`no 204 after 60 s:\n${spawned.output()}`);
          await sleep(20);
        }
        samples.push(round(secondsSince(start), 3));
      } finally {
        await stopGroup(spawned.child);
      }
      log(`server-cold-start: run ${i}/${runs} ${samples.at(-1)} s`);
    }
    return [{ name: 'server-cold-start', value: median(samples), unit: 's', budget: 1, samples }];
  },
};
