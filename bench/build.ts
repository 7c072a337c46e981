// `build`: production build of the console (vite build, always from scratch), median of 3.
// Runs vite directly rather than scripts/build.mjs, whose dependency check would add an install.
import { join } from 'node:path';
import { type Bench, binDir, childEnv, log, median, root, round, runToEnd, secondsSince } from './lib.ts';

const runs = 3;

/** Builds the oss console into packages/console/dist (this also clears scripts/build.mjs's stamp). */
export async function viteBuild(): Promise<void> {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  await runToEnd(join(binDir, 'node'), [vite, 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'packages', 'console'),
    env: childEnv({}),
  });
}

export const build: Bench = {
  name: 'build',
  figures: ['build'],
  async run() {
    const samples: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const start = performance.now();
      await viteBuild();
      samples.push(round(secondsSince(start)));
      log(`build: run ${i}/${runs} ${samples.at(-1)} s`);
    }
    return [{ name: 'build', value: median(samples), unit: 's', budget: 20, samples }];
  },
};
