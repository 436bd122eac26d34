#!/usr/bin/env bash
# Build gen_vectors against the ns-3.44 PyPI wheel (headers in site-packages/ns3/include,
# libraries in site-packages/ns3/lib64), then optionally regenerate/verify a vector file.
#
#   bash validation/ns3/cca_vectors/build.sh                    # build only
#   bash validation/ns3/cca_vectors/build.sh --verify            # and check the shipped files
#
# Environment: NS3_VENV (default: validation/ns3/.venv, created by validation/ns3/setup.sh;
# /work/ns3-venv also works), CXX (default g++), CCSIM_SHARED (default <repo>/../shared).
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
    SHARED="${CCSIM_SHARED:-$REPO/../shared}"
    status=0
    for f in scripted random_seed1 random_seed2 random_seed3; do
        ref="$SHARED/reference/ns3-cca-vectors/$f.json"
        python3 "$HERE/gen_vectors.py" --bin "$HERE/build/gen_vectors" "$ref" > "$HERE/build/$f.json"
        if cmp -s "$HERE/build/$f.json" "$ref"; then
            echo "$f.json: identical to the shipped file"
        else
            echo "$f.json: DIFFERS from the shipped file"; status=1
        fi
    done
    exit $status
fi
