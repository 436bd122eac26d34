#!/usr/bin/env bash
# Optional: builds a profile-guided (PGO) `ccsim-run` at target/pgo/release/ccsim-run.
# Nothing else (tests, CI, `scripts/setup.sh`) depends on it; results are bit-identical to the
# normal build, only faster (figures in benches/README.md, "PGO").
#
# 1. an instrumented build (-Cprofile-generate) in target/pgo-gen;
# 2. training runs: the ns-3 golden case D (1.3 Gb/s, 10 kB segments, rate steps) and case E
#    (20 Mb/s) for every algorithm, plus a few experiments/ — deliberately NOT the cases A, B,
#    C that benches/vs_ns3.py times;
# 3. llvm-profdata merge (the one shipped with this rustc: `rustup component add llvm-tools`;
#    Debian's llvm-profdata is older than rustc's LLVM and cannot read its raw profiles);
# 4. the optimised build (-Cprofile-use) in target/pgo.
# 5. with --python, also the Python extension, installed into .venv with the same profile.
# Usage: bash scripts/build_pgo.sh [--python]
#   then: python benches/vs_ns3.py --ccsim-bin target/pgo/release/ccsim-run
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
[ -x "$PY" ] || PY=python3
HOST="$(rustc -vV | sed -n 's/^host: //p')"
PROFDATA="${LLVM_PROFDATA:-$(rustc --print sysroot)/lib/rustlib/$HOST/bin/llvm-profdata}"
if [ ! -x "$PROFDATA" ]; then
  echo "error: $PROFDATA not found; run \`rustup component add llvm-tools\` or set LLVM_PROFDATA" >&2
  exit 1
fi
DATA="$ROOT/target/pgo-data"
rm -rf "$DATA"
mkdir -p "$DATA/scenarios"

echo "== 1/4 instrumented build (target/pgo-gen)"
CARGO_TARGET_DIR="$ROOT/target/pgo-gen" RUSTFLAGS="-Cprofile-generate=$DATA/raw" \
  cargo build --release -q --bin ccsim-run

echo "== 2/4 training runs"
"$PY" - "$DATA/scenarios" <<'EOF'
import json, sys
from pathlib import Path
sys.path.insert(0, "validation")
from compare_ns3 import scenario_from_golden
out = Path(sys.argv[1])
for g in sorted(Path("validation/golden/ns3").glob("[DE]_*.json")):
    (out / f"{g.stem}.json").write_text(json.dumps(scenario_from_golden(json.loads(g.read_text()))))
EOF
for s in "$DATA"/scenarios/*.json experiments/dumbbell_10flows_1G.toml \
  experiments/mahimahi_synthetic.toml experiments/seed002_ns3mmwave.toml; do
  "$ROOT/target/pgo-gen/release/ccsim-run" "$s" >/dev/null
done

echo "== 3/4 merge"
"$PROFDATA" merge -o "$DATA/merged.profdata" "$DATA/raw"

echo "== 4/4 optimised build (target/pgo)"
CARGO_TARGET_DIR="$ROOT/target/pgo" RUSTFLAGS="-Cprofile-use=$DATA/merged.profdata" \
  cargo build --release -q --bin ccsim-run
echo "built $ROOT/target/pgo/release/ccsim-run"

if [ "${1:-}" = "--python" ]; then
  echo "== 5/5 Python extension with the same profile (into $VENV)"
  CARGO_TARGET_DIR="$ROOT/target/pgo" RUSTFLAGS="-Cprofile-use=$DATA/merged.profdata" \
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall .
fi
