#!/usr/bin/env bash
# Quick start, step 2: set up ccsim and run the whole test suite (Rust and Python).
# ns-3 is not needed: its outputs are committed golden data under validation/golden/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
cd "$ROOT"
echo "== cargo test (release)"
cargo test --release --workspace --exclude ccsim-py
echo "== pytest"
"$VENV/bin/python" -m pytest -q tests
