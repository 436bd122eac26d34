#!/usr/bin/env bash
# Creates .venv (if needed) and builds + installs ccsim into it from source (Rust core via
# maturin, release profile). Safe to run again: cargo rebuilds only what changed.
# Usage: source scripts/setup.sh   (or bash scripts/setup.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo (Rust) is required: https://rustup.rs" >&2
  exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade "pip>=23" "maturin>=1.5,<2"
# Build the wheel in release mode and install it with its dependencies (numpy, pandas,
# pyarrow, matplotlib) and the test/dev extras.
( cd "$ROOT" && "$VENV/bin/python" -m pip install -q --disable-pip-version-check ".[dev]" )
echo "ccsim installed in $VENV ($("$VENV/bin/python" -c 'import ccsim; print(ccsim.__version__)'))"
