#!/usr/bin/env bash
# Install the ns-3.44 PyPI wheel into a venv and build the reference programs.
#
#   bash validation/ns3/setup.sh            # venv at validation/ns3/.venv
#   NS3_VENV=/work/ns3-venv bash validation/ns3/setup.sh
#
# The wheel ships the C++ headers (site-packages/ns3/include) and the shared
# libraries (site-packages/ns3/lib64/libns3.44-*.so); we compile against those
# with g++ -O2 and an rpath, so no ns-3 source build is needed.
#
# Environment:
#   NS3_VENV     venv path (default: validation/ns3/.venv)
#   NS3_PYTHON   python used to create the venv (default: python3)
#   NS3_FULL=1   install ns3 with its Python-binding dependencies (cppyy, which
#                builds from source and takes minutes); by default only the
#                wheel itself is installed (--no-deps), which is all the C++
#                programs need.
#   CXX          C++ compiler (default g++)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${NS3_VENV:-$HERE/.venv}"
PY="${NS3_PYTHON:-python3}"
CXX="${CXX:-g++}"
NS3_PIN="ns3==3.44.post0"

if [ ! -x "$VENV/bin/python" ]; then
    echo "[setup] creating venv $VENV"
    "$PY" -m venv "$VENV"
fi

SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
NS3DIR="$SITE/ns3"
if [ ! -f "$NS3DIR/include/ns3/core-module.h" ]; then
    echo "[setup] pip install $NS3_PIN into $VENV"
    if [ "${NS3_FULL:-0}" = "1" ]; then
        "$VENV/bin/pip" install "$NS3_PIN"
    else
        "$VENV/bin/pip" install --no-deps "$NS3_PIN"
    fi
fi

INC="$NS3DIR/include"
LIB="$NS3DIR/lib64"
[ -f "$INC/ns3/core-module.h" ] || { echo "ns-3 headers not found in $INC" >&2; exit 1; }
ls "$LIB"/libns3.44-core.so >/dev/null

BUILD="$HERE/build"
mkdir -p "$BUILD"

# Same compile definitions the wheel's CMake config exports for its targets.
DEFS="-DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -D__LINUX__"
LIBS="-lns3.44-applications -lns3.44-olsr -lns3.44-traffic-control -lns3.44-point-to-point \
      -lns3.44-internet -lns3.44-bridge -lns3.44-network -lns3.44-stats -lns3.44-core"

build() {
    local src="$1" out="$2"
    if [ "$BUILD/$out" -nt "$HERE/$src" ] && [ -z "${NS3_REBUILD:-}" ]; then
        echo "[setup] $out is up to date"
        return
    fi
    echo "[setup] compiling $src -> build/$out"
    # shellcheck disable=SC2086
    "$CXX" -std=c++20 -O2 $DEFS -I"$INC" "$HERE/$src" -o "$BUILD/$out" \
        -L"$LIB" -Wl,-rpath,"$LIB" $LIBS
}

build dumbbell.cc dumbbell
build rng_reference.cc rng_reference
build mesh.cc mesh

echo "$VENV" > "$BUILD/venv_path"
echo "[setup] done: $BUILD/dumbbell, $BUILD/mesh (venv $VENV)"
