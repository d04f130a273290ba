import { defineConfig } from 'vitest/config';

// Two tiers. unit: in-process (real SQLite and sqlite-vec, a deterministic embedder),
// seconds per file. e2e: child processes, the real model in its worker, the browser.
// `npm test` runs both; `npm run test:unit` / `npm run test:e2e` one each. postgres: the
// PostgreSQL tier, run when RHIZOME_TEST_DATABASE_URL is set (one line says so otherwise).
const E2E = ['test/**/*.e2e.test.ts', 'test/e2e/**/*.test.ts', 'test/web/**/*.test.ts'];
const PG = ['test/postgres/**/*.test.ts'];
const shared = { pool: 'forks' as const, globalSetup: ['test/helpers/global-setup.ts'] };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, ...PG], testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { ...shared, name: 'e2e', include: E2E, testTimeout: 60_000, hookTimeout: 120_000 } },
      { test: { pool: 'forks', globalSetup: ['test/postgres/tier-setup.ts'], name: 'postgres', include: PG, testTimeout: 60_000, hookTimeout: 120_000 } },
    ],
  },
});
