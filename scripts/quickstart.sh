#!/usr/bin/env bash
# Quick start, step 1: set up ccsim and run the default experiment (case A: one CUBIC flow,
# 100 Mb/s / 20 ms bottleneck, 1 BDP drop-tail queue, 60 s), writing results and a plot
# to results/quickstart/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
VENV="${CCSIM_VENV:-$ROOT/.venv}"
cd "$ROOT"
"$VENV/bin/ccsim" run experiments/dumbbell_cubic.toml --out results/quickstart
