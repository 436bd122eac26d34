#!/usr/bin/env bash
# Build gen_vectors against the ns-3.44 PyPI wheel (headers in site-packages/ns3/include,
# libraries in site-packages/ns3/lib64), then optionally regenerate/verify a vector file.
#
#   bash validation/ns3/cca_vectors/build.sh                    # build only
#   bash validation/ns3/cca_vectors/build.sh --verify            # and check the checked-in files
#
# --verify refills every file of validation/golden/ns3/cca-vectors from its event columns and
# compares byte for byte, then regenerates the random_gen_seed* files from scratch
# (make_vectors.sh --check).
#
# Environment: NS3_VENV (default: validation/ns3/.venv, created by validation/ns3/setup.sh),
# CXX (default g++).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
VENV="${NS3_VENV:-$HERE/../.venv}"
CXX="${CXX:-g++}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "no venv at $VENV: run validation/ns3/setup.sh or set NS3_VENV" >&2
    exit 2
fi
SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
NS3="$SITE/ns3"
if [ ! -f "$NS3/include/ns3/tcp-congestion-ops.h" ]; then
    echo "ns-3.44 wheel not installed in $VENV (pip install --no-deps ns3==3.44.post0)" >&2
    exit 2
fi
mkdir -p "$HERE/build"
"$CXX" -O2 -std=c++20 -I"$NS3/include" -o "$HERE/build/gen_vectors" "$HERE/gen_vectors.cc" \
    -L"$NS3/lib64" -Wl,-rpath,"$NS3/lib64" -lns3.44-internet -lns3.44-network -lns3.44-core
echo "built $HERE/build/gen_vectors"

if [ "${1:-}" = "--verify" ]; then
    status=0
    for ref in "$REPO"/validation/golden/ns3/cca-vectors/*.json; do
        f="$(basename "$ref")"
        python3 "$HERE/gen_vectors.py" --bin "$HERE/build/gen_vectors" "$ref" > "$HERE/build/$f"
        if cmp -s "$HERE/build/$f" "$ref"; then
            echo "$f: identical to the checked-in file"
        else
            echo "$f: DIFFERS from the checked-in file"; status=1
        fi
    done
    bash "$HERE/make_vectors.sh" --check || status=1
    exit $status
fi
