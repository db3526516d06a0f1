#!/usr/bin/env bash
# The Examples package's tests: TaskBoard's reducers, its effects on a manual scheduler, persistence,
# and the built `taskboard` binary end to end. The root .ci/run calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

swift test --package-path Examples -Xswiftc -warnings-as-errors
