#!/usr/bin/env bash
# A throw-away Citus cluster on this machine from an INSTALLED Citus, to run Fieldwork's
# migrations and integration suite distributed by tenant (docs/scale-out.md,
# docs/decisions/228-citus-run.md). Development only: not part of `npm test` or CI.
#
# Citus is installed by the operator, from Citus's own packages for the PostgreSQL in PGBIN
# (https://docs.citusdata.com/en/stable/installation/): this repository builds nothing of it.
#
#   sudo scripts/citus-cluster.sh start    create (first time) and start a coordinator and two workers
#   sudo scripts/citus-cluster.sh app-db   the app's database on every node, workers registered, migrated
#   sudo scripts/citus-cluster.sh status   the nodes and the Citus version
#   sudo scripts/citus-cluster.sh stop     stop the three servers (data kept)
#   sudo scripts/citus-cluster.sh destroy  stop and delete the data directories
#
# Then, as any user, the app on the cluster:
#   DATABASE_URL=postgres://postgres@127.0.0.1:9700/fieldwork npm start
# or the integration suite, each run in a fresh database on every node (tests/helpers/citus.ts):
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:9700/postgres TEST_CONCURRENCY=1 SKIP_BUILD=1 \
#     nice -n 15 npx tsx tests/run.ts tests/integration
#
# The servers run as the OS user `postgres`, trust authentication on 127.0.0.1 only (a
# development cluster).
set -euo pipefail

CLUSTER=${CITUS_CLUSTER:-/work/citus-cluster}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
OS_USER=${CITUS_OS_USER:-postgres}
# Few shards: a dev cluster on a small machine (every DDL statement runs once per shard).
SHARD_COUNT=${CITUS_SHARD_COUNT:-8}
NODES=("coord:9700" "w1:9701" "w2:9702")
APP_DB=${CITUS_APP_DB:-fieldwork}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

as_pg() { if [ "$(id -un)" = "$OS_USER" ]; then "$@"; else runuser -u "$OS_USER" -- "$@"; fi; }
psql_on() { local port=$1; shift; as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"; }

# Stops with a clear message when the PostgreSQL in PGBIN has no Citus installed.
require_citus() {
  local lib
  lib="$("$PGBIN/pg_config" --pkglibdir)/citus.so"
  if [ ! -f "$lib" ]; then
    echo "Citus is not installed for the PostgreSQL in $PGBIN (no $lib)." >&2
    echo "Install it from Citus's packages (https://docs.citusdata.com/en/stable/installation/), or set PGBIN." >&2
    exit 1
  fi
}

start() {
  require_citus
  mkdir -p "$CLUSTER" && chown "$OS_USER" "$CLUSTER"
  for node in "${NODES[@]}"; do
    local name=${node%%:*} port=${node##*:} dir="$CLUSTER/${node%%:*}"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_pg "$PGBIN/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
      cat >>"$dir/postgresql.conf" <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$CLUSTER'
shared_preload_libraries = 'citus'
shared_buffers = 64MB
max_connections = 200
max_prepared_transactions = 200
citus.shard_count = $SHARD_COUNT
wal_level = logical
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
      echo "initialised $name ($dir, port $port)"
    fi
    if ! as_pg "$PGBIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      as_pg "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w start >/dev/null
      echo "started $name on 127.0.0.1:$port"
    fi
  done
  # The extension on every node; the app role able to log in everywhere (Citus opens its
  # connections to the workers as the role the session set: fieldservice_app, docs/scale-out.md).
  for node in "${NODES[@]}"; do
    psql_on "${node##*:}" <<'SQL'
CREATE EXTENSION IF NOT EXISTS citus;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fieldservice_app') THEN
    SET LOCAL citus.enable_create_role_propagation = off;
    CREATE ROLE fieldservice_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
END $$;
SQL
  done
  # The workers registered in the coordinator's maintenance database: tests/helpers/citus.ts
  # copies this list into each test run's database.
  psql_on 9700 <<'SQL'
SELECT citus_set_coordinator_host('127.0.0.1', 9700);
SELECT citus_add_node('127.0.0.1', 9701) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = 9701);
SELECT citus_add_node('127.0.0.1', 9702) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = 9702);
SQL
  status
}

# The app's database on every node with the extension, the workers registered in the
# coordinator's copy, then the app's migrations (0081 distributes the tables by tenant).
app_db() {
  for node in "${NODES[@]}"; do
    local port=${node##*:}
    if [ -z "$(psql_on "$port" -tAc "SELECT 1 FROM pg_database WHERE datname = '$APP_DB'")" ]; then
      psql_on "$port" -c "CREATE DATABASE $APP_DB"
    fi
    as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$APP_DB" \
      -c "CREATE EXTENSION IF NOT EXISTS citus"
  done
  as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p 9700 -U postgres -d "$APP_DB" <<'SQL'
SELECT citus_set_coordinator_host('127.0.0.1', 9700);
SELECT citus_add_node('127.0.0.1', 9701) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = 9701);
SELECT citus_add_node('127.0.0.1', 9702) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = 9702);
SQL
  (cd "$ROOT" && DATABASE_URL="postgres://postgres@127.0.0.1:9700/$APP_DB" npx tsx scripts/db.ts migrate)
  echo "the app's database: postgres://postgres@127.0.0.1:9700/$APP_DB"
}

status() {
  psql_on 9700 -c "SELECT citus_version()" -c "SELECT version()" -c "SELECT nodeid, groupid, nodename, nodeport, isactive FROM pg_dist_node ORDER BY nodeid"
}

stop() {
  for node in "${NODES[@]}"; do
    local dir="$CLUSTER/${node%%:*}"
    [ -f "$dir/PG_VERSION" ] && as_pg "$PGBIN/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 && echo "stopped ${node%%:*}" || true
  done
}

case "${1:-}" in
  start) start ;;
  app-db) app_db ;;
  status) status ;;
  stop) stop ;;
  destroy) stop; rm -rf "$CLUSTER" ;;
  *) sed -n '2,22p' "$0"; exit 2 ;;
esac
