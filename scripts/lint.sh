#!/usr/bin/env bash
# The code-style gates, for developers before a commit (not part of the test suite: CI's
# toolchain may lack rustfmt/clippy): formatting, clippy, rustdoc links, ruff.
# Usage: bash scripts/lint.sh   (after scripts/setup.sh, which installs ruff into .venv)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
cd "$ROOT"
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo doc (broken or private intra-doc links are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
echo "== ruff"
"$VENV/bin/ruff" check python tests benches validation
"$VENV/bin/ruff" format --check python tests benches validation
echo "lint: all clean"
