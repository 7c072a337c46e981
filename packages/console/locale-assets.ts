import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * The console's strings ship as JSON files under `assets/locales/{language}-{version}/{namespace}.json`, fetched by
 * the i18n backend. The version is a hash of the language's files, so each stays cacheable for a year and the
 * console's own script carries 16 short versions, not a lazy import per language and namespace (336 entries, about
 * 38 kB of the first page before this).
 */
const localesDir = fileURLToPath(new URL('./src/i18n/locales/', import.meta.url));
const urlPattern = /^\/console\/assets\/locales\/([\w-]+)-[0-9a-f]+\/(\w+)\.json$/;

type LocaleFile = { language: string; namespace: string; path: string };

function localeFiles(): LocaleFile[] {
  return readdirSync(localesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((language) =>
      readdirSync(join(localesDir, language.name))
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => ({
          language: language.name,
          namespace: name.slice(0, -'.json'.length),
          path: join(localesDir, language.name, name),
        })),
    );
}

/** Language → version (the first 10 hex digits of a SHA-256 over its files' names and contents). */
export function localeVersions(): Record<string, string> {
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  for (const file of localeFiles()) {
    const hash = hashes.get(file.language) ?? createHash('sha256');
    hash.update(`${file.namespace}\0`).update(readFileSync(file.path)).update('\0');
    hashes.set(file.language, hash);
  }
  return Object.fromEntries([...hashes].map(([language, hash]) => [language, hash.digest('hex').slice(0, 10)]));
}

/** Emits the locale files into the build (minified), and serves them from the sources in development. */
export function localeAssets(versions: Record<string, string>): Plugin {
  return {
    name: 'gatehouse-locale-assets',
    generateBundle() {
      for (const { language, namespace, path } of localeFiles()) {
        this.emitFile({
          type: 'asset',
          fileName: `assets/locales/${language}-${versions[language]}/${namespace}.json`,
          source: JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))),
        });
      }
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const match = urlPattern.exec(request.url?.split('?')[0] ?? '');
        const file = match && localeFiles().find((f) => f.language === match[1] && f.namespace === match[2]);
        if (!file) return next();
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Cache-Control', 'no-cache');
        response.end(readFileSync(file.path));
      });
    },
  };
}
