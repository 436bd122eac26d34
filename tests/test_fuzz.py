"""Fuzzing the scenario loader (issue 18): random mutations of valid scenarios must load or
fail with a ScenarioError, never anything else (no panic, no other exception).

CI runs `CCSIM_FUZZ_N` = 300 cases (a few seconds). The longer run, before a release:

    CCSIM_FUZZ_N=100000 CCSIM_FUZZ_SEED=$RANDOM .venv/bin/python -m pytest -q tests/test_fuzz.py

A failure prints the seed and the case; the same seed reproduces it.
"""

from __future__ import annotations

import os
import random

import ccsim
from conftest import SMALL

N = int(os.environ.get("CCSIM_FUZZ_N", "300"))
SEED = int(os.environ.get("CCSIM_FUZZ_SEED", "18"))

KEYS = [
    "run.duration", "run.seed", "tcp.mss", "tcp.snd_buf", "tcp.rcv_buf",
    "dumbbell.bottleneck.rate", "dumbbell.bottleneck.delay", "dumbbell.bottleneck.queue",
    "dumbbell.access.rate", "dumbbell.access.delay", "dumbbell.mtu",
    "flows.0.cca", "flows.0.count", "flows.0.start", "flows.0.bytes", "flows.1.start",
    "flows.0.app.rate", "flows.0.app.chunk", "flows.0.app.on", "flows.0.app.off",
    "output.sample_interval", "flows.0.tcp.mss", "dumbbell.bottleneck.changes",
]  # fmt: skip
VALUES = [
    "0", "-1", "1", "0.4", "1e308", "-1e308", "nan", "inf", "18446744073709551616",
    "\"\"", "\"x\"", "\"10Mbps\"", "\"0.4bps\"", "\"1ns\"", "\"1e12s\"", "\"0B\"", "\"1bdp\"",
    "\"0.001bdp\"", "\"5 parsecs\"", "true", "[]", "[1, 2]", "{}", "\"cubic\"", "\"bbr\"",
    "\"2s\"", "\"100ms\"", "\"1MB\"", "65535", "4294967296", "[{at=\"1s\", rate=\"1Mbps\"}]",
]  # fmt: skip


def mutate(rng: random.Random) -> tuple[str, list[str]]:
    text = SMALL
    if rng.random() < 0.2:  # byte-level damage
        b = bytearray(text.encode())
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        text = b.decode("utf-8", errors="replace")
    sets = [f"{rng.choice(KEYS)}={rng.choice(VALUES)}" for _ in range(rng.randint(0, 3))]
    return text, sets


def test_loader_fuzz() -> None:
    rng = random.Random(SEED)
    for case in range(N):
        text, sets = mutate(rng)
        try:
            ccsim.load(text, set=sets)
        except ccsim.ScenarioError as e:
            assert str(e) and not str(e).startswith("("), (SEED, case, sets, str(e))
        except Exception as e:  # noqa: BLE001 - the point: nothing else may escape
            raise AssertionError(f"seed {SEED} case {case}: {sets!r} -> {e!r}\n{text}") from e
