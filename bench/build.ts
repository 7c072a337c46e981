// `build`: `npm run build -- --force`, always from scratch, median of 3: the console's production
// build (vite + precompression) and the server bundle.
import { join } from 'node:path';
import { type Bench, binDir, childEnv, log, median, root, round, runToEnd, secondsSince } from './lib.ts';

const runs = 3;

/** Builds the oss console into packages/console/dist and the server bundle, as `npm run build -- --force`. */
export async function viteBuild(): Promise<void> {
  await runToEnd(join(binDir, 'node'), [join(root, 'scripts', 'build.mjs'), '--force'], {
    cwd: root,
    env: childEnv({ EDITION: 'oss' }),
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
