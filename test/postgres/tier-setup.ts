// The PostgreSQL tier runs when RHIZOME_TEST_DATABASE_URL names a server (CI starts a
// throw-away one with scripts/pg-test-cluster.sh). Without it: one line, and no failure.
import buildDist from '../helpers/global-setup.js';

export default function setup() {
  if (!process.env.RHIZOME_TEST_DATABASE_URL) {
    console.log('PostgreSQL tier not run: RHIZOME_TEST_DATABASE_URL is not set (eval "$(bash scripts/pg-test-cluster.sh start)" to run it)');
    return;
  }
  buildDist();
}
