"""Invariants over random dumbbells (issue 18). A seeded generator, so a failure names its
case and reproduces; `CCSIM_PROPERTY_N` sets the number of cases (CI: 12)."""

from __future__ import annotations

import os
import random

import pytest

import ccsim

N = int(os.environ.get("CCSIM_PROPERTY_N", "12"))
CCAS = ["cubic", "newreno", "bbr", "vegas", "westwoodplus", "htcp", "illinois", "scalable"]


def random_dumbbell(rng: random.Random) -> dict:
    duration = rng.choice([0.5, 1.0, 2.0])
    flows = []
    for _ in range(rng.randint(1, 3)):
        f = {"cca": rng.choice(CCAS), "count": rng.randint(1, 3)}
        if rng.random() < 0.3:
            f["start"] = f"{rng.uniform(0, duration * 0.8):.3f}s"
        if rng.random() < 0.2:
            f["bytes"] = f"{rng.randint(1, 400)}kB"
        flows.append(f)
    return {
        "run": {"duration": f"{duration}s", "seed": rng.randint(1, 1000)},
        "dumbbell": {
            "bottleneck": {
                "rate": f"{rng.choice([1, 5, 20, 100])}Mbps",
                "delay": f"{rng.choice([1, 10, 40])}ms",
                "queue": rng.choice(["1bdp", "2bdp", "50p", "30kB"]),
            }
        },
        "flows": flows,
    }


@pytest.mark.parametrize("case", range(N))
def test_random_dumbbell_invariants(case: int) -> None:
    scenario = random_dumbbell(random.Random(case))
    s = ccsim.run(scenario).summary
    n = sum(f["count"] for f in scenario["flows"])
    assert [f["id"] for f in s["flows"]] == list(range(n)), "every flow reported"
    rate = float(scenario["dumbbell"]["bottleneck"]["rate"].removesuffix("Mbps"))
    for f in s["flows"]:
        assert 0 <= f["goodput_mbps"] <= rate * (1 + 1e-9), (case, f)
        span = f["fct_s"] if f["fct_s"] is not None else s["duration_s"] - f["start_s"]
        assert f["goodput_mbps"] == pytest.approx(f["bytes_delivered"] * 8 / span / 1e6), case
        if f["rtt_samples"]:
            assert f["rtt_p95_ms"] >= f["rtt_p50_ms"] > 0, (case, f)
        assert f["retx_segments"] <= f["tx_segments"], (case, f)
    jain = s.get("jain_index")
    if jain is not None:
        assert 1 / n - 1e-12 <= jain <= 1 + 1e-12, (case, jain)
