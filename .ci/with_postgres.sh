#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL cluster; its DSN is in FOLDGRAPH_PG_DSN.
#
# Installs PostgreSQL from the distribution (apt) when no server binaries are found
# and we are root; starts a private cluster in a temporary directory (unix socket
# only, on a free port), runs the command, and always stops and removes the cluster.
# Without a server the command still runs and the Postgres tests skip loudly,
# except under CI (CI=true), where a missing server is an error.
set -uo pipefail
export PATH="$PATH:/usr/sbin:/sbin"  # runuser, useradd

find_bindir() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return 0
    fi
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
        echo "$dir"
        return 0
    fi
    return 1
}

fail_or_skip() {
    echo "with_postgres: $1" >&2
    if [ "${CI:-}" = "true" ]; then
        echo "with_postgres: CI=true, so the PostgreSQL tests must run: failing." >&2
        exit 1
    fi
    echo "with_postgres: running without PostgreSQL; its tests will be skipped." >&2
    exec "$@"
}

if [ -n "${FOLDGRAPH_PG_DSN:-}" ]; then
    exec "$@"  # a server was provided
fi

BINDIR=$(find_bindir)
if [ -z "$BINDIR" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "with_postgres: installing PostgreSQL from apt" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
    BINDIR=$(find_bindir)
fi
[ -n "$BINDIR" ] || fail_or_skip "no PostgreSQL server binaries (initdb, pg_ctl) found" "$@"

WORK=$(mktemp -d /tmp/fg-pg.XXXXXX)
RUNAS=()
if [ "$(id -u)" = "0" ]; then
    # The server refuses to run as root: use the postgres account (created if missing).
    id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$WORK"
    RUNAS=(runuser -u postgres --)
fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${RUNAS[@]}" "$BINDIR/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$WORK"
}
trap stop EXIT INT TERM

if ! "${RUNAS[@]}" "$BINDIR/initdb" -D "$WORK/data" -U postgres -A trust --no-sync \
        >"$WORK/initdb.log" 2>&1; then
    cat "$WORK/initdb.log" >&2
    fail_or_skip "initdb failed" "$@"
fi
if ! "${RUNAS[@]}" "$BINDIR/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 60 start \
        -o "-k $WORK -p $PORT -c listen_addresses='' -c fsync=off -c max_connections=200" \
        >/dev/null 2>&1; then
    cat "$WORK/server.log" >&2
    fail_or_skip "the PostgreSQL server did not start" "$@"
fi
export FOLDGRAPH_PG_DSN="host=$WORK port=$PORT user=postgres dbname=postgres"
echo "with_postgres: PostgreSQL running ($("$BINDIR/postgres" --version)), DSN: $FOLDGRAPH_PG_DSN" >&2
"$@"
