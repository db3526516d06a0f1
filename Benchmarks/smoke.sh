#!/usr/bin/env bash
# CI smoke test: builds the benchmarks package (the package-benchmark suite included) and runs every
# workload once, at a small size, for floor-sync, floor-queue and Canopy (tree-width-middleware,
# dropped-children, subscribe-dedup, subscribe-props, child-slope and the recorded and persisted runs: Canopy only), with
# its result checks.
# No timing is asserted. Exits non-zero if the build or any check fails.
#
#     Benchmarks/smoke.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

echo "smoke: building the benchmarks package (release)"
swift build -c release
tool="$(swift build -c release --show-bin-path)/canopy-workload"

# workload and size: W1/W2/W3 actions, W4 subscribers and children, W5 actions per producer.
for run in "w1 200000" "w2 10000" "w3 10000" "w4 2000" "w5 100000"; do
    read -r workload size <<<"$run"
    echo "smoke: ${workload^^} at size $size"
    "$tool" "$workload" --system all --size "$size"
done
for children in 10 100 1000; do
    echo "smoke: tree-width with $children children, 2000 actions to one"
    "$tool" tree-width --system all --children "$children" --size 2000
done
echo "smoke: tree-width-middleware with 10 children, 2000 actions to one, a pass-through middleware on the root"
"$tool" tree-width-middleware --system canopy --children 10 --size 2000
echo "smoke: W1 with one pass-through middleware, 200000 actions"
"$tool" w1-middleware --system all --size 200000
echo "smoke: subscribe, 2000 subscriptions"
"$tool" subscribe --system all --size 2000
echo "smoke: subscribe-dedup, 2000 deduplicating subscriptions made and cancelled"
"$tool" subscribe-dedup --system canopy --size 2000
echo "smoke: subscribe-props, 2000 props subscriptions made and cancelled"
"$tool" subscribe-props --system canopy --size 2000
for subscriber in checked raw deduplicating; do
    echo "smoke: child-slope, 20 children with one $subscriber subscriber each, 2000 actions"
    "$tool" child-slope --system canopy --subscriber "$subscriber" --children 20 --size 2000
done
echo "smoke: dropped-children, 2000 iterations"
"$tool" dropped-children --system canopy --size 2000
echo "smoke: W1 with an action recorder, 200000 actions"
"$tool" w1-recorded --system canopy --size 200000
echo "smoke: W1 with a persistence writer registered, 200000 actions"
"$tool" w1-persisted --system canopy --size 200000
echo "smoke: persistence drain, 20 rounds of 1000 entities"
"$tool" persist-drain --system canopy --size 20
echo "smoke: every workload ran and passed its checks"
