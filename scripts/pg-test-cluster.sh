#!/usr/bin/env bash
# A throw-away PostgreSQL for the PostgreSQL test tier.
#
#   eval "$(bash scripts/pg-test-cluster.sh start)"     # exports RHIZOME_TEST_DATABASE_URL, RHIZOME_TEST_PG_DIR
#   bash scripts/pg-test-cluster.sh stop "$RHIZOME_TEST_PG_DIR"
#
# `start` creates a cluster in a new temporary folder with initdb (as the unprivileged
# `postgres` user when run as root: PostgreSQL refuses to run as root), starts it on a free
# TCP port of 127.0.0.1 (and a Unix socket inside the folder), creates the database
# `rhizome_test`, and prints the export lines on stdout (everything else goes to stderr).
# It never touches a cluster Debian's package may have started on 5432.
# `stop` stops that cluster and removes its folder; `pause`/`resume` stop and restart it in place. Trust authentication, fsync off (RHIZOME_PG_DURABLE=1: on): for tests only.
set -euo pipefail

bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$d" ] || [ ! -x "$d/initdb" ]; then
    echo "pg-test-cluster: PostgreSQL binaries not found (apt-get install -y postgresql)" >&2
    exit 1
  fi
  echo "$d"
}

# Runs a command as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin dir port
  bin=$(bindir)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/rhizome-pg-XXXXXX")
  chmod 0755 "$dir"
  mkdir -p "$dir/sock"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "pg-test-cluster: no 'postgres' user (apt-get install -y postgresql creates it)" >&2; exit 1; }
    chown -R postgres: "$dir"
  fi
  cd "$dir" # the owner must be able to stat its working directory
  [ "${RHIZOME_PG_DURABLE:-}" = 1 ] && touch "$dir/durable"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2; exit 1; }
  local tries=0
  while :; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir/sock $(durability)-c max_connections=200" \
      start >&2; then
      break
    fi
    tries=$((tries + 1))
    if [ $tries -ge 3 ]; then tail -20 "$dir/server.log" >&2; exit 1; fi
  done
  as_owner "$bin/createdb" -h "$dir/sock" -p "$port" -U postgres rhizome_test >&2
  echo "$port" >"$dir/port"
  echo "export RHIZOME_TEST_PG_DIR=$dir"
  echo "export RHIZOME_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/rhizome_test"
}

stop() {
  local dir=${1:-${RHIZOME_TEST_PG_DIR:-}}
  if [ -z "$dir" ] || [ ! -f "$dir/data/PG_VERSION" ]; then
    echo "pg-test-cluster: usage: stop <folder printed by start>" >&2; exit 2
  fi
  local bin
  bin=$(bindir)
  cd "$dir"
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
  cd /
  rm -rf -- "$dir"
}

# pause/resume: stop the server (fast shutdown: sessions are cut) and start it again on the
# same port and data, for tests of a database lost while Rhizome runs.
pause() {
  local dir=${1:-}
  [ -n "$dir" ] && [ -f "$dir/data/PG_VERSION" ] || { echo "pg-test-cluster: usage: pause <folder>" >&2; exit 2; }
  cd "$dir"
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m fast -w stop >&2
}

# Tests need no durability (fsync off); RHIZOME_PG_DURABLE=1 at start keeps PostgreSQL's
# defaults, for benches whose write figures must include flushing the commit.
durability() {
  [ -f "$dir/durable" ] || printf '%s' '-c fsync=off -c synchronous_commit=off -c full_page_writes=off '
}

resume() {
  local dir=${1:-}
  [ -n "$dir" ] && [ -f "$dir/port" ] || { echo "pg-test-cluster: usage: resume <folder>" >&2; exit 2; }
  local port
  port=$(cat "$dir/port")
  cd "$dir"
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-p $port -c listen_addresses=127.0.0.1 -k $dir/sock $(durability)-c max_connections=200" \
    start >&2
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  pause) pause "${2:-}" ;;
  resume) resume "${2:-}" ;;
  *) echo "usage: $0 start | stop <folder> | pause <folder> | resume <folder>" >&2; exit 2 ;;
esac
