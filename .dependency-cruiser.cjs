// The layer check (`node scripts/layer-check.mjs`, a step of `npm test`): every "never" of the layer pictures in
// docs/architecture.md ("The server's layers", "The console") and docs/conventions.md ("Import direction"), as
// dependency-cruiser rules. Paths are relative to the repository root. Every rule is an error: a new import that breaks
// one fails `npm test` with the rule's name and comment. packages/server/test/layer-check.test.ts plants one violation
// of each rule in a copy of the tree and expects the check to name it.

const server = '^packages/server/src/';
const consoleSrc = '^packages/console/src/';

/**
 * Route modules that import db/ today: known violations of `routes-not-to-db`, listed so that no other route module
 * starts importing db/. Lists read a service's `ListSource` (services/list-query.ts) and relation lists a service's
 * related rows (services/relation-rows.ts), so route modules name no table (issue 44). What remains: the cloud kit types
 * the whole database handle its routes work across tenants with (`Database`): the named operations across tenants
 * (docs/areas/security.md) hold the raw handle by design.
 */
const routesKnownToImportDb = ['cloud/shared', 'cloud/tenant-access'];

/**
 * Modules of one console page area that other areas import today besides its links.ts: known violations of
 * `console-area-not-to-other-area`. The audit-log entry page and its link builder are shown inside the application and
 * user detail pages; the rest are helpers that belong in components/ (a date format hook, the MFA factor names, a
 * connector's facts). Listed so that no other module of an area becomes another area's dependency.
 */
const areaModulesKnownToBeShared = [
  'audit-logs/LogEntryPage.tsx',
  'audit-logs/log-links.ts',
  'connectors/ConnectorFacts.tsx',
  'users/detail/settings/mfa-factors.ts',
  'users/use-date-time-format.ts',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, in any package, type-only imports included (docs/conventions.md).',
      from: {},
      to: { circular: true },
    },
    // Packages: schemas ← server, schemas ← console.
    {
      name: 'schemas-not-to-server-or-console',
      severity: 'error',
      comment: 'The schemas package is imported by server and console, never the reverse (by name or by path).',
      from: { path: '^packages/schemas/' },
      to: { path: '^(packages/(server|console|e2e)/|@gatehouse/(server|console|e2e)(/|$))' },
    },
    {
      name: 'schemas-no-ui',
      severity: 'error',
      comment: 'The schemas package has no UI: it never imports React.',
      from: { path: '^packages/schemas/' },
      to: { path: '(^|/)node_modules/(react|react-dom)/|^(react|react-dom)(/|$)' },
    },
    {
      name: 'console-not-to-server',
      severity: 'error',
      comment: 'The console never imports server code (by name or by path); what both need lives in schemas.',
      from: { path: '^packages/console/' },
      to: { path: '^(packages/server/|@gatehouse/server(/|$))' },
    },
    // Console: components/, api/, i18n/ ← pages/<area>/ ← app/.
    {
      name: 'console-kit-not-to-pages-or-shell',
      severity: 'error',
      comment: 'Console layers: components, api and i18n never import pages or the app shell (pages use them).',
      from: { path: `${consoleSrc}(components|api|i18n)/` },
      to: { path: `${consoleSrc}(pages|app)/` },
    },
    {
      name: 'console-pages-not-to-shell',
      severity: 'error',
      comment:
        'Console layers: pages never import the app shell (app/ composes pages; what a page needs from the shell ' +
        'comes through components/routing/). Tests excepted.',
      from: { path: `${consoleSrc}pages/`, pathNot: '\\.test\\.tsx?$' },
      to: { path: `${consoleSrc}app/` },
    },
    {
      name: 'console-area-not-to-other-area',
      severity: 'error',
      comment:
        'A page area (pages/<area>/: the folder of one ConsoleArea, its routes.ts, pages and own components) ' +
        "never imports a module of another area; the one door between areas is an area's links.ts (the paths " +
        'of its pages). The modules in areaModulesKnownToBeShared are known violations; no other may join.',
      from: { path: `${consoleSrc}pages/([^/]+)/` },
      to: {
        path: `${consoleSrc}pages/[^/]+/`,
        pathNot: [
          `${consoleSrc}pages/$1/`,
          `${consoleSrc}pages/[^/]+/links\\.ts$`,
          `${consoleSrc}pages/(${areaModulesKnownToBeShared.map((path) => path.replaceAll('.', '\\.')).join('|')})$`,
        ],
      },
    },
    // Server: the HTTP edge (http/, routes/) → services/ → db/; auth/, billing/ and shared/ beside them.
    {
      name: 'domain-not-to-edge',
      severity: 'error',
      comment:
        'services/, auth/, db/, billing/ and shared/ never import the HTTP edge (http/, routes/, app.ts): they ' +
        'throw DomainError (packages/schemas), which the edge maps to a status once; shared/ holds what both use.',
      from: { path: `${server}(services|auth|db|billing|shared)/` },
      to: { path: `${server}(http/|routes/|app\\.ts$|http-server\\.ts$)` },
    },
    {
      name: 'services-not-to-hono',
      severity: 'error',
      comment: 'Services take a WriteContext or a TenantDb and typed input, never a Hono context: they import no Hono.',
      from: { path: `${server}services/` },
      to: { path: '(^|/)node_modules/(hono|@hono/[^/]+)/|^(hono|@hono/[^/]+)(/|$)' },
    },
    {
      name: 'db-not-to-upper-layers',
      severity: 'error',
      comment: 'The data layer imports neither services, auth, billing nor the edge (db/seed.ts: see its own rule).',
      from: { path: `${server}db/`, pathNot: `${server}db/seed\\.ts$` },
      to: { path: `${server}(services|auth|billing|http|routes)/` },
    },
    {
      // The explicit exception: the seed bootstraps a tenant (its console application's secret, its issuer's
      // resources and its first signing key), which needs these four modules and nothing else above db/.
      name: 'db-seed-only-its-four-exceptions',
      severity: 'error',
      comment:
        'db/seed.ts may import auth/issuers.ts, auth/oidc/clients.ts, auth/signing-keys.ts and ' +
        'services/client-secret.ts, nothing else above the data layer.',
      from: { path: `${server}db/seed\\.ts$` },
      to: {
        path: `${server}(services|auth|billing|http|routes)/`,
        pathNot: `${server}(auth/issuers|auth/oidc/clients|auth/signing-keys|services/client-secret)\\.ts$`,
      },
    },
    {
      name: 'edge-kit-not-to-routes',
      severity: 'error',
      comment: 'http/ is the kit of the edge: routes use it, it never imports a route module.',
      from: { path: `${server}http/` },
      to: { path: `${server}routes/` },
    },
    {
      name: 'route-not-to-route',
      severity: 'error',
      comment:
        'A route module never imports another route module (routes/index.ts mounts them); shared code lives in ' +
        'http/ or services/. A top-level route never imports a cloud route or the cloud kit either.',
      from: { path: `${server}routes/[^/]+\\.ts$`, pathNot: `${server}routes/index\\.ts$` },
      to: { path: `${server}routes/` },
    },
    {
      name: 'cloud-route-not-to-route',
      severity: 'error',
      comment:
        'A cloud route never imports another route module, cloud or top-level (routes/cloud/index.ts mounts ' +
        'them); the cloud kit (cloud/shared.ts, cloud/tenant-access.ts) is the one exception.',
      from: { path: `${server}routes/cloud/`, pathNot: `${server}routes/cloud/index\\.ts$` },
      to: { path: `${server}routes/`, pathNot: `${server}routes/cloud/(shared|tenant-access)\\.ts$` },
    },
    {
      name: 'routes-not-to-db',
      severity: 'error',
      comment:
        'Routes reach data through services (and the TenantDb of the request), not db/ directly (the error mapper ' +
        'db/database-errors.ts excepted). The route modules listed in .dependency-cruiser.cjs ' +
        '(routesKnownToImportDb) are known violations; no other may join.',
      from: {
        path: `${server}routes/`,
        pathNot: `${server}routes/(${routesKnownToImportDb.join('|')})\\.ts$`,
      },
      // db/database-errors.ts turns a constraint violation into a DomainError: error mapping, not data access.
      to: { path: `${server}db/`, pathNot: `${server}db/database-errors\\.ts$` },
    },
  ],
  options: {
    // The node_modules packages are leaves: a rule can name them (React, Hono), nothing inside them is read.
    doNotFollow: { path: 'node_modules' },
    // Imports name their files with extensions (`./x.ts`); workspace packages resolve through their `exports`.
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
    // TypeScript 7 has no JavaScript API, so dependency-cruiser reads .ts/.tsx with its tolerant JavaScript parser
    // (acorn-loose); scripts/layer-check.mjs checks that it found every import line of every file.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
  },
};
