#!/usr/bin/env bash
# Prints Canopy's performance table: W1–W5 beside the two floors, measured side by side.
#
#     Benchmarks/run.sh [--iterations N] [--callgrind-size N] [--no-callgrind] [--keep DIR]
#
# 1. Runs the package-benchmark suite (`swift package benchmark`). Every iteration of a workload runs
#    floor-sync, floor-queue and Canopy one after the other and checks each result; the table shows the
#    median (p50) over the iterations, and Canopy's ratio to floor-queue is the median of the ratios
#    taken within each iteration. Allocations and heap bytes come from package-benchmark's malloc
#    interposer.
# 2. Counts W1's instructions per action with valgrind's callgrind (stable even on a busy machine):
#    `canopy-workload` runs W1 at size 0 and at `--callgrind-size`, and the difference is divided by
#    the size, which cancels start-up costs.
#
# A failed result check stops the script with a non-zero status.
set -euo pipefail

iterations=7
callgrind_size=200000
callgrind=1
keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --iterations) iterations="$2"; shift 2 ;;
    --callgrind-size) callgrind_size="$2"; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    --keep) keep="$2"; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done

cd "$(dirname "${BASH_SOURCE[0]}")"
if [[ -n "$keep" ]]; then
    mkdir -p "$keep"
    out="$(cd "$keep" && pwd)"
else
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi

log() { echo "run.sh: $*" >&2; }

load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //')"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"

# --- 1. The package-benchmark suite -------------------------------------------------------------
log "building and running the benchmark suite ($iterations iterations per workload, after 1 warm-up)"
if ! CANOPY_BENCHMARK_ITERATIONS="$iterations" swift package --allow-writing-to-directory "$out" \
    benchmark --format histogramPercentiles --path "$out" --no-progress >"$out/suite.log" 2>&1; then
    cat "$out/suite.log" >&2
    log "FAILED: the benchmark suite failed (a result check, or the build); see the output above"
    exit 1
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //')"

# The median of a custom metric: p50 <benchmark name> <metric name>
p50() {
    local file="$out/Current_run.CanopyBenchmarks.${1// /_}.${2// /_}.histogram.percentiles.tsv"
    if [[ ! -f "$file" ]]; then
        log "FAILED: no result for '$1' / '$2' ($file)"
        exit 1
    fi
    awk -F'\t' '$1 == "50" { print $2 }' "$file"
}

# Formatting helpers (awk does the arithmetic).
rate() { awk -v v="$1" 'BEGIN { if (v >= 1e6) printf "%.2f M", v / 1e6; else printf "%.0f k", v / 1e3 }'; }
ratio() { awk -v v="$1" 'BEGIN { printf "%.2f×", v / 1000 }'; }
per_action() { awk -v v="$1" 'BEGIN { printf "%.3f", v / 1e6 }'; }
per_thousand() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1000 }'; }
micros() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1000 }'; }
# holds <value> <op> <bound>
holds() { awk -v v="$1" -v b="$3" -v op="$2" 'BEGIN { ok = (op == ">=") ? (v >= b) : (v <= b); print ok ? "yes" : "**no**" }'; }

declare -A value
for workload in "W1 dispatch throughput" "W2 fan-out" "W3 tree" "W5 two producers"; do
    key="${workload%% *}"
    for system in floor-sync floor-queue canopy; do
        value[$key.$system.rate]="$(p50 "$workload" "$system actions per s")"
        value[$key.$system.allocations]="$(p50 "$workload" "$system allocations per 1M actions")"
    done
    value[$key.ratio]="$(p50 "$workload" "canopy per 1000 floor-queue")"
done
for system in floor-sync floor-queue canopy; do
    value[W3.$system.p50]="$(p50 "W3 tree" "$system latency p50 ns")"
    value[W3.$system.p99]="$(p50 "W3 tree" "$system latency p99 ns")"
    value[W4.$system.subscriber]="$(p50 "W4 memory" "$system bytes per subscriber")"
    value[W4.$system.subscriberAllocations]="$(p50 "W4 memory" "$system allocations per 1000 subscribers")"
    value[W4.$system.child]="$(p50 "W4 memory" "$system bytes per child")"
    value[W4.$system.childAllocations]="$(p50 "W4 memory" "$system allocations per 1000 children")"
done
value[W3.latencyRatio]="$(p50 "W3 tree" "canopy latency p50 per 1000 floor-queue")"

# --- 2. W1 instructions per action under callgrind ----------------------------------------------
declare -A instructions
if [[ $callgrind == 1 ]] && ! command -v valgrind >/dev/null 2>&1; then
    log "valgrind is not installed: W1 instructions per action are NOT measured (install valgrind to get them)"
    callgrind=0
    callgrind_note="not measured: valgrind is not installed"
elif [[ $callgrind == 0 ]]; then
    callgrind_note="not measured (--no-callgrind)"
fi
if [[ $callgrind == 1 ]]; then
    log "counting W1 instructions per action with callgrind (sizes 0 and $callgrind_size)"
    swift build -c release --product canopy-workload >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
    tool="$(swift build -c release --show-bin-path)/canopy-workload"
    # Total instructions (Ir) of one run: callgrind_total <system> <size> <repeat>
    callgrind_total() {
        local file="$out/callgrind.$1.$2.$3"
        valgrind --tool=callgrind --callgrind-out-file="$file" "$tool" w1 --system "$1" --size "$2" --quiet \
            2>"$file.log" || { cat "$file.log" >&2; log "FAILED: W1 $1 under callgrind"; exit 1; }
        awk '/^(summary|totals):/ { print $2; exit }' "$file"
    }
    for system in floor-sync floor-queue canopy; do
        # Callgrind runs one thread at a time, so how the actions batch into drains varies a little from
        # run to run: the median of three differences.
        per_action=()
        for repeat in 1 2 3; do
            base="$(callgrind_total "$system" 0 "$repeat")"
            full="$(callgrind_total "$system" "$callgrind_size" "$repeat")"
            per_action+=("$(awk -v a="$base" -v b="$full" -v n="$callgrind_size" 'BEGIN { printf "%.0f", (b - a) / n }')")
        done
        instructions[$system]="$(printf '%s\n' "${per_action[@]}" | sort -n | sed -n 2p)"
        log "  $system: ${per_action[*]} instructions per action"
    done
    callgrind_note="valgrind --tool=callgrind, (Ir at $callgrind_size actions − Ir at 0) / $callgrind_size, median of 3"
fi

# --- The table ------------------------------------------------------------------------------------
row() { echo "| $1 | $2 | $3 | $4 | $5 | $6 | $7 |"; }
v() { echo "${value[$1]}"; }

echo
echo "Canopy benchmarks, $started on $(uname -sm), $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores" \
    "($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || sysctl -n machdep.cpu.brand_string))"
echo "$(swift --version 2>/dev/null | head -1)"
echo "Medians of $iterations iterations (after 1 warm-up); ratios are to floor-queue in the same iteration."
echo "Load average before / after: $load_before / $load_after."
echo
row "workload" "floor-sync" "floor-queue" "Canopy" "Canopy / fq" "target" "holds"
row "---" "---" "---" "---" "---" "---" "---"
row "W1 actions/s" "$(rate "$(v W1.floor-sync.rate)")" "$(rate "$(v W1.floor-queue.rate)")" \
    "$(rate "$(v W1.canopy.rate)")" "$(ratio "$(v W1.ratio)")" "≥ 4.0× fq" "$(holds "$(v W1.ratio)" ">=" 4000)"
if [[ $callgrind == 1 ]]; then
    row "W1 instructions/action" "${instructions[floor-sync]}" "${instructions[floor-queue]}" \
        "${instructions[canopy]}" "" "≤ 500" "$(holds "${instructions[canopy]}" "<=" 500)"
else
    row "W1 instructions/action" "" "" "$callgrind_note" "" "≤ 500" ""
fi
row "W1 allocations/action" "$(per_action "$(v W1.floor-sync.allocations)")" \
    "$(per_action "$(v W1.floor-queue.allocations)")" "$(per_action "$(v W1.canopy.allocations)")" "" "≤ 1" \
    "$(holds "$(v W1.canopy.allocations)" "<=" 1000000)"
row "W2 actions/s" "$(rate "$(v W2.floor-sync.rate)")" "$(rate "$(v W2.floor-queue.rate)")" \
    "$(rate "$(v W2.canopy.rate)")" "$(ratio "$(v W2.ratio)")" "≥ 1.0× fq" "$(holds "$(v W2.ratio)" ">=" 1000)"
row "W3 actions/s" "$(rate "$(v W3.floor-sync.rate)")" "$(rate "$(v W3.floor-queue.rate)")" \
    "$(rate "$(v W3.canopy.rate)")" "$(ratio "$(v W3.ratio)")" "≥ 0.5× fq" "$(holds "$(v W3.ratio)" ">=" 500)"
row "W3 latency p50 / p99 µs" \
    "$(micros "$(v W3.floor-sync.p50)") / $(micros "$(v W3.floor-sync.p99)")" \
    "$(micros "$(v W3.floor-queue.p50)") / $(micros "$(v W3.floor-queue.p99)")" \
    "$(micros "$(v W3.canopy.p50)") / $(micros "$(v W3.canopy.p99)")" \
    "$(ratio "$(v W3.latencyRatio)") (p50)" "p50 ≤ 1.5× fq" "$(holds "$(v W3.latencyRatio)" "<=" 1500)"
row "W4 heap B per subscriber" "$(v W4.floor-sync.subscriber)" "$(v W4.floor-queue.subscriber)" \
    "$(v W4.canopy.subscriber)" "" "≤ 150" "$(holds "$(v W4.canopy.subscriber)" "<=" 150)"
row "W4 heap B per child store + 1 observer" "$(v W4.floor-sync.child)" "$(v W4.floor-queue.child)" \
    "$(v W4.canopy.child)" "" "≤ 600" "$(holds "$(v W4.canopy.child)" "<=" 600)"
row "W5 actions/s, none lost" "$(rate "$(v W5.floor-sync.rate)")" "$(rate "$(v W5.floor-queue.rate)")" \
    "$(rate "$(v W5.canopy.rate)")" "$(ratio "$(v W5.ratio)")" "≥ 1.5× fq" "$(holds "$(v W5.ratio)" ">=" 1500)"
echo
echo "Allocations beside the targets (malloc calls per action; heap blocks still held per subscriber or child):"
echo
row4() { echo "| $1 | $2 | $3 | $4 |"; }
row4 "workload" "floor-sync" "floor-queue" "Canopy"
row4 "---" "---" "---" "---"
for key in W2 W3 W5; do
    row4 "$key allocations/action" "$(per_action "$(v $key.floor-sync.allocations)")" \
        "$(per_action "$(v $key.floor-queue.allocations)")" "$(per_action "$(v $key.canopy.allocations)")"
done
row4 "W4 heap blocks per subscriber" "$(per_thousand "$(v W4.floor-sync.subscriberAllocations)")" \
    "$(per_thousand "$(v W4.floor-queue.subscriberAllocations)")" \
    "$(per_thousand "$(v W4.canopy.subscriberAllocations)")"
row4 "W4 heap blocks per child store + 1 observer" "$(per_thousand "$(v W4.floor-sync.childAllocations)")" \
    "$(per_thousand "$(v W4.floor-queue.childAllocations)")" \
    "$(per_thousand "$(v W4.canopy.childAllocations)")"
echo
echo "W1 instructions: $callgrind_note."
echo "Heap bytes are requested bytes still allocated (malloc − free) while the subscribers or children live."
if [[ -n "$keep" ]]; then
    echo "Raw results kept in $out."
fi
