#!/usr/bin/env bash
# Builds Canopy's DocC documentation with warnings as errors, so a broken ``Symbol`` link in a `///`
# comment or in Sources/Canopy/Canopy.docc fails the run; then CanopyPersistence's, from its comments. Uses only the toolchain: the compiler writes
# the library's symbol graph, and `docc` (shipped with Swift) converts it with the catalog.
#
#     .ci/docc.sh [--output-path DIR]     # default .build-docc/Canopy.doccarchive
#
# The library is built in its own scratch path (.build-docc), because the symbol-graph flags would
# otherwise make the next plain `swift build` rebuild everything.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docc
output="$scratch/Canopy.doccarchive"
if [[ $# -eq 2 && "$1" == "--output-path" ]]; then
    output="$2"
elif [[ $# -gt 0 ]]; then
    echo "docc.sh: unknown arguments: $* (usage: .ci/docc.sh [--output-path DIR])" >&2
    exit 2
fi

if command -v docc >/dev/null; then
    docc=docc
elif command -v xcrun >/dev/null && xcrun --find docc >/dev/null 2>&1; then
    docc="$(xcrun --find docc)"
else
    echo "docc.sh: no 'docc' found: it ships with the Swift toolchain (add the toolchain's usr/bin to PATH)" >&2
    exit 1
fi

# The compiler rewrites the graphs whenever a source (or a doc comment) changes; when they are missing
# but the build is up to date, only a fresh scratch path brings them back.
symbol_graphs="$PWD/$scratch/symbolgraph"
if [[ ! -f "$symbol_graphs/Canopy.symbols.json" ]]; then
    rm -rf "$scratch"
fi
mkdir -p "$symbol_graphs"
swift build --target Canopy --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbol_graphs"

"$docc" convert Sources/Canopy/Canopy.docc \
    --additional-symbol-graph-dir "$symbol_graphs" \
    --fallback-display-name Canopy --fallback-bundle-identifier org.example.Canopy \
    --output-path "$output" --warnings-as-errors
echo "docc.sh: documentation built without warnings in $output"

# CanopyPersistence extends Canopy's StateStore: its graphs need extension blocks (a flag that breaks
# Canopy's catalog, hence a scratch path of its own), and only its own graphs go to docc.
persistence_scratch=.build-docc-persistence
persistence_graphs="$PWD/$persistence_scratch/symbolgraph"
if [[ ! -f "$persistence_graphs/CanopyPersistence.symbols.json" ]]; then
    rm -rf "$persistence_scratch"
fi
mkdir -p "$persistence_graphs" "$persistence_scratch/persistence-only"
swift build --target CanopyPersistence --scratch-path "$persistence_scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$persistence_graphs" \
    -Xswiftc -emit-extension-block-symbols
rm -f "$persistence_scratch"/persistence-only/*.json
cp "$persistence_graphs"/CanopyPersistence*.symbols.json "$persistence_scratch/persistence-only/"
"$docc" convert \
    --additional-symbol-graph-dir "$persistence_scratch/persistence-only" \
    --fallback-display-name CanopyPersistence --fallback-bundle-identifier org.example.CanopyPersistence \
    --output-path "$(dirname "$output")/CanopyPersistence.doccarchive" --warnings-as-errors
echo "docc.sh: CanopyPersistence's documentation built without warnings"
