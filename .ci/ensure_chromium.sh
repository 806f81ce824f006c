#!/usr/bin/env bash
# The viewer's browser tests drive Debian's headless Chromium (with Playwright for
# Python, from the dev extra): install it with apt when missing and we are root.
# Without it the browser tests skip loudly, except under CI=true, where they fail.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: installing chromium from apt" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq chromium >&2 && exit 0
fi
echo "ensure_chromium: no /usr/bin/chromium and cannot install it; browser tests will skip" \
     "(and fail under CI=true)" >&2
exit 0
