#!/usr/bin/env bash
# Run a command with a throwaway Redis server; its URL is in FOLDGRAPH_REDIS_URL.
#
# Installs Redis from the distribution (apt) when `redis-server` is missing and we are
# root; starts a private server on a free port of 127.0.0.1 (no persistence, its files
# in a temporary directory), runs the command, and always stops the server by its pid.
# Without a server the command still runs and the Redis tests skip loudly, except under
# CI (CI=true), where a missing server is an error.
set -uo pipefail

fail_or_skip() {
    echo "with_redis: $1" >&2
    if [ "${CI:-}" = "true" ]; then
        echo "with_redis: CI=true, so the Redis tests must run: failing." >&2
        exit 1
    fi
    echo "with_redis: running without Redis; its tests will be skipped." >&2
    exec "$@"
}

if [ -n "${FOLDGRAPH_REDIS_URL:-}" ]; then
    exec "$@"  # a server was provided
fi

if ! command -v redis-server >/dev/null 2>&1 && [ "$(id -u)" = "0" ] \
        && command -v apt-get >/dev/null 2>&1; then
    echo "with_redis: installing Redis from apt" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq redis-server || { apt-get update -qq && apt-get install -y -qq redis-server; }; } >&2
fi
command -v redis-server >/dev/null 2>&1 || fail_or_skip "no redis-server found" "$@"

WORK=$(mktemp -d /tmp/fg-redis.XXXXXX)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK" \
    --logfile "$WORK/redis.log" --daemonize no >/dev/null 2>&1 &
PID=$!

stop() {
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    rm -rf "$WORK"
}
trap stop EXIT INT TERM

for _ in $(seq 1 100); do
    if redis-cli -p "$PORT" ping >/dev/null 2>&1; then
        break
    fi
    sleep 0.1
done
if ! redis-cli -p "$PORT" ping >/dev/null 2>&1; then
    cat "$WORK/redis.log" >&2
    fail_or_skip "the Redis server did not start" "$@"
fi
export FOLDGRAPH_REDIS_URL="redis://127.0.0.1:$PORT"
echo "with_redis: Redis running ($(redis-server --version | cut -d' ' -f3)), URL: $FOLDGRAPH_REDIS_URL" >&2
"$@"
