import { readdirSync, readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { defineConfig } from 'vitest/config';

// Two tiers. unit: in-process (real SQLite and sqlite-vec, a deterministic embedder),
// seconds per file. e2e: child processes, the real model in its worker, the browser.
// `npm test` runs both; `npm run test:unit` / `npm run test:e2e` one each. postgres: the
// PostgreSQL tier, run when RHIZOME_TEST_DATABASE_URL is set (one line says so otherwise).
const E2E = ['test/**/*.e2e.test.ts', 'test/e2e/**/*.test.ts', 'test/web/**/*.test.ts'];
const PG = ['test/postgres/**/*.test.ts'];
// The package as a user installs it (npm pack, npx, npm install -g): minutes of npm installing;
// run by scripts/test.sh (RHIZOME_TEST_PACKAGE=1) and `npm run test:package`.
const PACKAGE = ['test/package/**/*.test.ts'];
// The in-process HTTP-level suites, run again on PostgreSQL: every unit file that builds its
// app through makeTestApp (test/helpers/app.ts) or a helper made on it.
const APP_HELPERS = /makeTestApp|capturesApp|from '\.\/oauth-fixture\.js'|helpers\/real-model\.js/;
const PG_APP = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((f) => `test/${f.split(sep).join('/')}`)
  .filter((f) => f.endsWith('.test.ts') && APP_HELPERS.test(readFileSync(f, 'utf8')));
// What only SQLite has: pragmas and page limits, SQLite schema steps.
const SQLITE_ONLY = [
  'test/reliability/disk-full.test.ts', 'test/relevance/migration.test.ts', 'test/auth/oauth-migration.test.ts',
  'test/foundation/repo-scenarios.test.ts', 'test/foundation/sql-translate.test.ts', 'test/upgrade/upgrade.test.ts',
  // Not engine-specific, but one run is enough: the document does not depend on the database.
  'test/docs/api-reference.test.ts',
];
const shared = { pool: 'forks' as const, globalSetup: ['test/helpers/global-setup.ts'] };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, ...PG, ...PACKAGE], testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { ...shared, name: 'e2e', include: E2E, testTimeout: 60_000, hookTimeout: 120_000 } },
      { test: { pool: 'forks', globalSetup: ['test/postgres/tier-setup.ts'], name: 'postgres', include: PG, testTimeout: 60_000, hookTimeout: 120_000 } },
      ...(process.env.RHIZOME_TEST_PACKAGE === '1' ? [{ test: { name: 'package', include: PACKAGE, pool: 'forks' as const, testTimeout: 30 * 60_000, hookTimeout: 15 * 60_000 } }] : []),
      // The in-process HTTP suites again, each app on a PostgreSQL database of its own (test/helpers/test-database.ts).
      ...(process.env.RHIZOME_TEST_DATABASE_URL ? [{ test: { pool: 'forks' as const, globalSetup: ['test/postgres/tier-setup.ts'], name: 'postgres-app', include: PG_APP, exclude: [...E2E, ...PG, ...SQLITE_ONLY], env: { RHIZOME_TEST_BACKEND: 'postgres' }, testTimeout: 60_000, hookTimeout: 120_000 } }] : []),
    ],
  },
});
