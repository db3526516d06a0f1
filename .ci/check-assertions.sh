#!/usr/bin/env bash
# Flags every @Test function whose body asserts nothing: no #expect, no #require, no Issue.record, no
# withKnownIssue, and no call to one of the helpers below, each of which asserts itself. A test that
# only reaches a wait passes whatever the code does; it must state what it expects.
#
# Usage: .ci/check-assertions.sh [directory...]   (default: Tests Examples/Tests)
set -euo pipefail
cd "$(dirname "$0")/.."

# Test helpers that record an issue when what they check does not hold, separated by `|`. Add a helper
# here only if it asserts the behaviour under test (a bounded wait does not):
# - a `TestStore`'s `send`, `receive` and `finish` (CanopyTesting) compare states and received actions;
# - the prompt tests' `waitForLine` / `waitForScreen` throw unless the screen shows what is expected.
helpers='store\\.send|store\\.receive|store\\.finish|waitForLine|waitForScreen'

dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(Tests Examples/Tests)

found=$(find "${dirs[@]}" -name '*.swift' -print0 | xargs -0 awk -v helpers="$helpers" '
    FNR == 1 { inTest = 0; depth = 0; started = 0 }
    # An @Test attribute starts a test; its function body is the first brace block after it.
    !inTest && /^[[:space:]]*@Test/ { inTest = 1; depth = 0; started = 0; body = ""; line = FNR; name = "" }
    inTest {
        if (name == "" && match($0, /func [A-Za-z_][A-Za-z0-9_]*/)) { name = substr($0, RSTART + 5, RLENGTH - 5) }
        text = $0
        sub(/\/\/.*$/, "", text)  # ignore comments, so a commented-out #expect does not count
        body = body "\n" text
        n = length(text)
        for (i = 1; i <= n; i++) {
            c = substr(text, i, 1)
            if (c == "{" && name != "") { depth++; started = 1 }
            else if (c == "}" && started) { depth-- }
        }
        if (started && depth == 0) {
            inTest = 0
            pattern = "#expect|#require|Issue\\.record|withKnownIssue"
            if (helpers != "") { pattern = pattern "|(" helpers ")\\(" }
            if (body !~ pattern) { printf "%s:%d: @Test %s asserts nothing\n", FILENAME, line, name }
        }
    }
')

if [ -n "$found" ]; then
    echo "$found"
    echo "Give each test an #expect or #require (or call a helper listed in .ci/check-assertions.sh)." >&2
    exit 1
fi
echo "every @Test asserts something"
