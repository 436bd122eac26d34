#!/usr/bin/env bash
# Regenerate the random_gen_seed*.json vectors checked in under validation/golden/ns3/cca-vectors
# from scratch: event script (gen_events.py) -> ns-3.44 values (gen_vectors.py + gen_vectors.cc).
#
#   NS3_VENV=... bash validation/ns3/cca_vectors/build.sh           # build gen_vectors once
#   bash validation/ns3/cca_vectors/make_vectors.sh [--check]
#
# Seeds 4..23, 600 events each; even seeds carry the even-position algorithms of
# gen_events.ALGORITHMS, odd seeds the odd ones (6 algorithms a file keeps the set ~3 MB).
# --check regenerates into build/ and compares with the checked-in files instead of writing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$(cd "$HERE/../../golden/ns3/cca-vectors" && pwd)"
BIN="$HERE/build/gen_vectors"
[ -x "$BIN" ] || { echo "build gen_vectors first: bash $HERE/build.sh" >&2; exit 2; }
mkdir -p "$HERE/build/events"
status=0
for seed in $(seq 4 23); do
    half=$([ $((seed % 2)) -eq 0 ] && echo even || echo odd)
    events="$HERE/build/events/seed$seed.json"
    python3 "$HERE/gen_events.py" --seed "$seed" --events 600 --half "$half" > "$events"
    name="random_gen_seed$seed.json"
    if [ "${1:-}" = "--check" ]; then
        python3 "$HERE/gen_vectors.py" --bin "$BIN" "$events" > "$HERE/build/$name"
        if cmp -s "$HERE/build/$name" "$OUT/$name"; then
            echo "$name: identical"
        else
            echo "$name: DIFFERS"; status=1
        fi
    else
        python3 "$HERE/gen_vectors.py" --bin "$BIN" "$events" > "$OUT/$name"
        echo "wrote $OUT/$name"
    fi
done
exit $status
