#!/usr/bin/env bash
# The profile-guided (PGO) build of ccsim: `scripts/setup.sh` ships it when this rustc's
# llvm-profdata is available (figures in benches/README.md); results are bit-identical to the
# normal build, only faster.
#
# 1. an instrumented `ccsim-run` (-Cprofile-generate) in target/pgo-gen;
# 2. training runs: the ns-3 golden case D (1.3 Gb/s, 10 kB segments, rate steps) and case E
#    (20 Mb/s) for every algorithm, plus three experiments/ — deliberately NOT the cases A, B,
#    C that benches/vs_ns3.py times;
# 3. llvm-profdata merge (the one shipped with this rustc: `rustup component add llvm-tools`;
#    Debian's llvm-profdata is older than rustc's LLVM and cannot read its raw profiles);
# 4. the optimised `ccsim-run` (-Cprofile-use) in target/pgo;
# 5. with --python, also the Python extension with the same profile, installed into the venv
#    with its dependencies (what `scripts/setup.sh` does).
# Steps 1-3 run again only when an input of the profile changed: the sources (crates/,
# Cargo.toml, Cargo.lock), rustc, this script or the training inputs; the hash of those is kept
# in target/pgo-data/stamp. A profile reused on changed sources would still give identical
# results (LLVM drops the profile of every function whose code changed) but a slower binary.
# Usage: bash scripts/build_pgo.sh [--python]    the build
#        bash scripts/build_pgo.sh --check       exit 0 if PGO can be built here, else print why
#   then: python benches/vs_ns3.py               (times the build scripts/setup.sh shipped)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
[ -x "$PY" ] || PY=python3
HOST="$(rustc -vV | sed -n 's/^host: //p')"
PROFDATA="${LLVM_PROFDATA:-$(rustc --print sysroot)/lib/rustlib/$HOST/bin/llvm-profdata}"

# Finds this rustc's llvm-profdata, adding rustup's llvm-tools component once if it is missing
# (bounded: the component needs the network). Prints the reason and fails if there is none.
check() {
  [ -x "$PROFDATA" ] && return 0
  if [ -n "${LLVM_PROFDATA:-}" ]; then
    echo "LLVM_PROFDATA=$LLVM_PROFDATA is not an executable"
    return 1
  fi
  if command -v rustup >/dev/null 2>&1 &&
    timeout 120 rustup component add llvm-tools >/dev/null 2>&1 && [ -x "$PROFDATA" ]; then
    return 0
  fi
  echo "llvm-profdata of $(rustc --version | cut -d' ' -f1-2) not found ($PROFDATA) and" \
    "\`rustup component add llvm-tools\` failed or is unavailable"
  return 1
}
if [ "${1:-}" = "--check" ]; then
  check
  exit
fi
if ! why="$(check)"; then
  echo "error: $why; install it, or set LLVM_PROFDATA" >&2
  exit 1
fi

DATA="$ROOT/target/pgo-data"
TRAIN=(experiments/dumbbell_10flows_1G.toml experiments/mahimahi_synthetic.toml
  experiments/seed002_ns3mmwave.toml)
stamp() {
  {
    rustc -vV
    find crates -type f -print0 | sort -z | xargs -0 sha256sum
    sha256sum Cargo.toml Cargo.lock scripts/build_pgo.sh validation/ns3_scenario.py \
      validation/golden/ns3/[DE]_*.json "${TRAIN[@]}"
  } | sha256sum | cut -d' ' -f1
}
# One flag string for every profile-use build: cargo reuses target/pgo only if it is identical.
USE_FLAGS="-Cprofile-use=$DATA/merged.profdata"
t0=$SECONDS
STAMP="$(stamp)"
if [ -f "$DATA/merged.profdata" ] && [ "$(cat "$DATA/stamp" 2>/dev/null)" = "$STAMP" ]; then
  echo "== 1-3/4 profile up to date (target/pgo-data, same sources)"
else
  rm -rf "$DATA"
  mkdir -p "$DATA/scenarios"
  echo "== 1/4 instrumented build (target/pgo-gen)"
  CARGO_TARGET_DIR="$ROOT/target/pgo-gen" RUSTFLAGS="-Cprofile-generate=$DATA/raw" \
    cargo build --release -q --bin ccsim-run
  echo "   $((SECONDS - t0)) s"
  echo "== 2/4 training runs"
  "$PY" - "$DATA/scenarios" <<'EOF'
import json, sys
from pathlib import Path
sys.path.insert(0, "validation")
from ns3_scenario import scenario_from_golden
out = Path(sys.argv[1])
for g in sorted(Path("validation/golden/ns3").glob("[DE]_*.json")):
    (out / f"{g.stem}.json").write_text(json.dumps(scenario_from_golden(json.loads(g.read_text()))))
EOF
  for s in "$DATA"/scenarios/*.json "${TRAIN[@]}"; do
    "$ROOT/target/pgo-gen/release/ccsim-run" "$s" >/dev/null
  done
  echo "   $((SECONDS - t0)) s"
  echo "== 3/4 merge"
  "$PROFDATA" merge -o "$DATA/merged.profdata" "$DATA/raw"
  echo "$STAMP" >"$DATA/stamp"
fi

echo "== 4/4 optimised build (target/pgo)"
CARGO_TARGET_DIR="$ROOT/target/pgo" RUSTFLAGS="$USE_FLAGS" cargo build --release -q --bin ccsim-run
echo "   $((SECONDS - t0)) s: $ROOT/target/pgo/release/ccsim-run"

if [ "${1:-}" = "--python" ]; then
  echo "== 5/5 Python extension with the same profile, and its dependencies (into $VENV)"
  CARGO_TARGET_DIR="$ROOT/target/pgo" RUSTFLAGS="$USE_FLAGS" \
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check ".[dev]"
  echo "   $((SECONDS - t0)) s"
fi
