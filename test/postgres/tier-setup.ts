// The PostgreSQL tier runs when RHIZOME_TEST_DATABASE_URL names a server (CI starts a
// throw-away one with scripts/pg-test-cluster.sh). Without it: one line, and no failure —
// unless RHIZOME_TEST_REQUIRE_POSTGRES=1 (CI sets it): then a cluster that did not start
// fails the run instead of quietly skipping the tier.
import buildDist from '../helpers/global-setup.js';

/** vitest's global setup (it passes its own argument, so the environment is read here). */
export default function setup() {
  checkPostgresTier(process.env);
}

export function checkPostgresTier(env: NodeJS.ProcessEnv): void {
  if (!env.RHIZOME_TEST_DATABASE_URL) {
    if (env.RHIZOME_TEST_REQUIRE_POSTGRES === '1') {
      throw new Error('RHIZOME_TEST_REQUIRE_POSTGRES=1 but RHIZOME_TEST_DATABASE_URL is not set: the PostgreSQL test cluster did not start (scripts/pg-test-cluster.sh start)');
    }
    console.log('PostgreSQL tier not run: RHIZOME_TEST_DATABASE_URL is not set (eval "$(bash scripts/pg-test-cluster.sh start)" to run it)');
    return;
  }
  buildDist();
}
