// `install`: cold `npm ci` of the committed HEAD, with an empty npm cache. Reported only (no budget).
import { type Bench, childEnv, log, removeTempDir, root, round, runToEnd, secondsSince, tempDir } from './lib.ts';

export const install: Bench = {
  name: 'install',
  figures: ['install'],
  async run() {
    const checkout = tempDir('clone');
    const cache = tempDir('npm-cache');
    try {
      log('install: cloning HEAD…');
      await runToEnd('git', ['clone', '--quiet', root, checkout], { env: process.env });
      log('install: npm ci with a cold cache (takes a minute or two)…');
      const start = performance.now();
      await runToEnd('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: checkout,
        env: childEnv({ npm_config_cache: cache }),
      });
      const seconds = secondsSince(start);
      return [{ name: 'install', value: round(seconds, 1), unit: 's', budget: null, samples: [round(seconds, 2)] }];
    } finally {
      removeTempDir(checkout);
      removeTempDir(cache);
    }
  },
};
