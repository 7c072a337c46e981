import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { localeVersions } from './locale-assets.ts';

export default defineConfig({
  // Resolve src/ from this folder whether vitest starts here or at the repository root.
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Tests build routes for an explicit edition; this only keeps the typed constant defined.
  define: {
    'import.meta.env.GATEHOUSE_EDITION': JSON.stringify('oss'),
    'import.meta.env.GATEHOUSE_LOCALE_VERSIONS': JSON.stringify(localeVersions()),
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // Both cores (vitest's default leaves one free: 52 s → 34 s here), in worker threads, which start faster than
    // forked processes; every file renders into its own happy-dom window.
    pool: 'threads',
    maxWorkers: 2,
    // The CSS modules whose styles a test checks are processed and injected, with their class names as written, so
    // a component test can check computed styles users depend on (clipping, no wrapping, toast offset); happy-dom has
    // no layout. Only these: every injected sheet makes each getByRole's visibility check dearer (all modules: about
    // +17% CPU for the suite). Others still import as {}; add a module here when a test checks its styles.
    css: {
      include: [/\/(shared|Sidebar|Toast|CardRadio|PageHeader)\.module\.css$/],
      modules: { classNameStrategy: 'non-scoped' },
    },
  },
});
