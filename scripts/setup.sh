#!/usr/bin/env bash
# Creates .venv (if needed) and builds + installs ccsim into it from source (Rust core via
# maturin, release profile). Safe to run again: cargo rebuilds only what changed.
# The build shipped is profile-guided (scripts/build_pgo.sh: ~12 % fewer instructions, 5-7 %
# less CPU on case A, bit-identical results) when this rustc's llvm-profdata is available, else
# the normal build; target/shipped-build records which, for the benchmarks (benches/spawn.py)
# and the tests.
# CCSIM_PGO=0 forces the normal build (a quicker rebuild while changing Rust code), CCSIM_PGO=1
# fails if PGO is not available.
# Usage: source scripts/setup.sh   (or bash scripts/setup.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
PGO="${CCSIM_PGO:-auto}"
case "$PGO" in
  auto | 0 | 1) ;;
  *)
    echo "error: CCSIM_PGO=$PGO: allowed auto (the default), 0 (normal build), 1 (PGO or fail)" >&2
    exit 1
    ;;
esac
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo (Rust) is required: https://rustup.rs" >&2
  exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade "pip>=23" "maturin>=1.5,<2"
mkdir -p "$ROOT/target"
MARK="$ROOT/target/shipped-build"
rm -f "$MARK"
why="CCSIM_PGO=0"
if [ "$PGO" != 0 ] && why="$(bash "$ROOT/scripts/build_pgo.sh" --check)"; then
  # The wheel and ccsim-run, both with one profile, and the dependencies (numpy, pandas,
  # pyarrow, matplotlib) and the test/dev extras.
  if bash "$ROOT/scripts/build_pgo.sh" --python; then
    echo "pgo" >"$MARK"
  else
    why="scripts/build_pgo.sh failed, see above"
  fi
fi
if [ -f "$MARK" ]; then
  echo "ccsim build: profile-guided (PGO; CCSIM_PGO=0 bash scripts/setup.sh for the normal build)"
else
  if [ "$PGO" = 1 ]; then
    echo "error: CCSIM_PGO=1 but the PGO build is not possible: $why" >&2
    exit 1
  fi
  ( cd "$ROOT" && "$VENV/bin/python" -m pip install -q --disable-pip-version-check ".[dev]" )
  printf 'normal\n%s\n' "$why" >"$MARK"
  hint=""
  case "$why" in llvm-profdata*)
    hint="; for the PGO build (~12 % fewer instructions): rustup component add llvm-tools, rerun this" ;;
  esac
  echo "ccsim build: normal, not profile-guided ($why)$hint"
fi
echo "ccsim installed in $VENV ($("$VENV/bin/python" -c 'import ccsim; print(ccsim.__version__)'))"
