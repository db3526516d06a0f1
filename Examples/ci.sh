#!/usr/bin/env bash
# The Examples package's tests: TaskBoard's reducers, its effects and subscriptions on a manual
# scheduler, persistence, and the built `taskboard` binary end to end. The root .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

# TaskBoard's GRDB builds against the system's SQLite headers (Linux: libsqlite3-dev). CI jobs that run
# this script without .ci/run get them here, only when they are missing.
if [ "$(uname)" = Linux ] && [ ! -f /usr/include/sqlite3.h ]; then
    sudo=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo apt-get update -q && $sudo apt-get install -y -q libsqlite3-dev
fi

test_examples=(swift test --package-path Examples -Xswiftc -warnings-as-errors)

# A hung test must fail the run quickly; the tests themselves take seconds.
if command -v timeout >/dev/null; then
    exec timeout 900 "${test_examples[@]}"
fi
exec "${test_examples[@]}"
