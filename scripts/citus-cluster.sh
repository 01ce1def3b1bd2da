#!/usr/bin/env bash
# A throw-away Citus cluster on this machine, to run Fieldwork's migrations and integration suite
# distributed by tenant (docs/scale-out.md, docs/decisions/228-citus-run.md). Development only:
# not part of `npm test` or CI (CI machines have no Citus).
#
#   sudo scripts/citus-cluster.sh build    build Citus from the local mirror and install it into PG 15
#   sudo scripts/citus-cluster.sh start    create (first time) and start a coordinator and two workers
#   sudo scripts/citus-cluster.sh status   the nodes and the Citus version
#   sudo scripts/citus-cluster.sh stop     stop the three servers (data kept)
#   sudo scripts/citus-cluster.sh destroy  stop and delete the data directories
#
# Then, as any user:
#   DATABASE_URL=postgres://postgres@127.0.0.1:9700/fieldwork npx tsx scripts/db.ts migrate
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:9700/postgres TEST_CONCURRENCY=1 SKIP_BUILD=1 \
#     nice -n 15 npx tsx tests/run.ts tests/integration
# (tests/helpers/citus.ts makes the per-run database on every node when the server preloads citus.)
#
# Nothing here is downloaded: the source is the bare mirror of github.com/citusdata/citus, the
# build dependencies come from Debian's packages. The servers run as the OS user `postgres`,
# trust authentication on 127.0.0.1 only (a development cluster).
set -euo pipefail

MIRROR=${CITUS_MIRROR:-/work/.mirror/citusdata+citus/repo}
TAG=${CITUS_TAG:-v13.2.2}
SRC=${CITUS_SRC:-/work/citus-src}
CLUSTER=${CITUS_CLUSTER:-/work/citus-cluster}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
OS_USER=${CITUS_OS_USER:-postgres}
# Few shards: a dev cluster on a small machine (every DDL statement runs once per shard).
SHARD_COUNT=${CITUS_SHARD_COUNT:-8}
NODES=("coord:9700" "w1:9701" "w2:9702")

as_pg() { if [ "$(id -un)" = "$OS_USER" ]; then "$@"; else runuser -u "$OS_USER" -- "$@"; fi; }
psql_on() { local port=$1; shift; as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"; }

build() {
  apt-get install -y postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev \
    libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev autoconf flex bison make gcc
  rm -rf "$SRC" && mkdir -p "$SRC"
  git -C "$MIRROR" archive "$TAG" | tar -x -C "$SRC"
  cd "$SRC"
  # Debian's PostgreSQL 15.20 headers declare have_createdb_privilege() (backported), which
  # Citus 13.2.2 defines itself as static for PG < 16: rename Citus's copy.
  if grep -q 'extern bool have_createdb_privilege' "$("$PGBIN/pg_config" --includedir-server)/commands/dbcommands.h" \
     && grep -q '^have_createdb_privilege(void)' src/include/pg_version_compat.h; then
    sed -i 's/^have_createdb_privilege(void)/citus_have_createdb_privilege(void)\n#define have_createdb_privilege() citus_have_createdb_privilege()/' src/include/pg_version_compat.h
  fi
  PG_CONFIG="$PGBIN/pg_config" nice -n 15 ./configure --without-libcurl
  nice -n 15 make -j2 with_llvm=no
  make install with_llvm=no
}

start() {
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
  build) build ;;
  start) start ;;
  status) status ;;
  stop) stop ;;
  destroy) stop; rm -rf "$CLUSTER" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
