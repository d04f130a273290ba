#!/usr/bin/env bash
# The one test command (the README's `npm run test:all`; CI runs exactly this, after `npm ci`).
#   1. Debian packages the tiers need, when missing and apt-get can install them:
#      chromium (dashboard tests), nginx (two processes behind a proxy), postgresql.
#   2. A throw-away PostgreSQL cluster (scripts/pg-test-cluster.sh); the run FAILS without it.
#   3. npm run typecheck, npm run lint (when the script exists).
#   4. Every vitest tier: unit, e2e, postgres, postgres-app; then package (npm pack, npx, npm install -g).
# Arguments go to vitest (a file filter, for a quick check of this script).
# The last line is "N passed, N failed" (a failed typecheck or lint counts as one failure each).
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
{ [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1; } || missing+=(nginx)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && sudo="sudo -n"; }
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; }; then
    echo "test: installing ${missing[*]} (apt-get)" >&2
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
      || echo "test: warning: apt-get could not install ${missing[*]}" >&2
  else
    echo "test: warning: ${missing[*]} missing and cannot be installed here (needs apt-get as root or sudo)" >&2
  fi
fi

if ! pg_env=$(bash scripts/pg-test-cluster.sh start); then
  echo "test: no PostgreSQL test cluster could be started (install Debian's postgresql); the PostgreSQL tier is required" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
eval "$pg_env"
trap 'bash scripts/pg-test-cluster.sh stop "$RHIZOME_TEST_PG_DIR" >/dev/null 2>&1' EXIT

extra_failed=0
npm run typecheck || { echo "test: typecheck failed" >&2; extra_failed=$((extra_failed + 1)); }
npm run lint --if-present || { echo "test: lint failed" >&2; extra_failed=$((extra_failed + 1)); }

mkdir -p .ci-out
rm -f .ci-out/results.json .ci-out/results-package.json
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.ci-out/results.json "$@" || status=1
# The package tier after the others: its installs compile better-sqlite3, which would slow
# the timed end-to-end tests running beside it.
RHIZOME_TEST_PACKAGE=1 npx vitest run --project package --passWithNoTests --reporter=default --reporter=json --outputFile.json=.ci-out/results-package.json "$@" || status=1

EXTRA_FAILED=$extra_failed node -e '
const fs = require("fs");
let passed = 0, failed = Number(process.env.EXTRA_FAILED);
for (const file of [".ci-out/results.json", ".ci-out/results-package.json"]) {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += r.numPassedTests;
    const own = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
    failed += own || (r.success ? 0 : 1);
  } catch { failed += 1; }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
' || status=1
exit $status
