#!/usr/bin/env python3
"""Write a random CCA event script (shared/reference/cca-replay-format.md) for gen_vectors.py.

The mix follows the description of the shipped `random_seed{1,2,3}.json`: ACKs of 1-3 segments
with a log-normal RTT random walk in [5, 500] ms and occasional jumps; per ACK, a loss episode
with probability 0.015 (3..23 dupacks, 0..3 partial ACKs, then the full ACK) and an RTO (1..3 s)
with probability 0.002. Event times come from a NewReno-like window model of the sender
(an ACK of k segments arrives k·RTT/cwnd after the previous one), as in the shipped files.
Unlike them, the MSS (536..8960 B) and initial window (1..10 segments) are drawn from the seed
too. It is a re-implementation from that description (the generator of the three shipped files,
`anchors/ns3/cca_vectors.cc`, is not in the repo), so its seeds are a new family:
`random_gen_seedN`.

The result columns are placeholders (zeros); gen_vectors.py fills them with ns-3.44's values:

    python3 gen_events.py --seed 4 > build/events4.json
    python3 gen_vectors.py --bin build/gen_vectors build/events4.json > random_gen_seed4.json

`make_vectors.sh` does this for the whole checked-in set in validation/golden/ns3/cca-vectors.
"""

import argparse
import json
import math
import random

ALGORITHMS = [
    "TcpNewReno",
    "TcpLinuxReno",
    "TcpCubic",
    "TcpVegas",
    "TcpWestwoodPlus",
    "TcpYeah",
    "TcpScalable",
    "TcpHighSpeed",
    "TcpHybla",
    "TcpBic",
    "TcpHtcp",
    "TcpIllinois",
]
MSS_CHOICES = [536, 1000, 1448, 1460, 8960]
INIT_CWND_CHOICES = [1, 2, 4, 9, 10]
INIT_SSTHRESH = 4294967295
P_LOSS = 0.015
P_RTO = 0.002


def normal(rng):
    """A standard normal draw from two uniforms (Box-Muller), so the script depends only on
    `random.random()`, whose sequence for a seed is stable across Python versions."""
    u1 = 1.0 - rng.random()
    u2 = rng.random()
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def uniform_int(rng, lo, hi):
    return lo + int(rng.random() * (hi - lo + 1))


class Script:
    """The event list plus the sender model that spaces the events in time."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.mss = self.rng.choice(MSS_CHOICES)
        self.init_cwnd_segs = self.rng.choice(INIT_CWND_CHOICES)
        self.t = 0.0
        self.rtt = 20.0 + 180.0 * self.rng.random()  # ms
        self.cwnd = float(self.init_cwnd_segs)  # segments, for spacing only
        self.ssthresh = math.inf
        self.steps = [[0, "init", 0, 0, 0, 0, 0]]

    def walk_rtt(self):
        if self.rng.random() < 0.01:
            self.rtt *= math.exp(normal(self.rng))  # a jump (handover, route change)
        else:
            self.rtt *= math.exp(0.03 * normal(self.rng))
        self.rtt = min(500.0, max(5.0, self.rtt))

    def add(self, event, segs, rtt_ms, dt_s):
        self.t += dt_s
        self.steps.append([round(self.t, 9), event, segs, round(rtt_ms, 3), 0, 0, 0])

    def ack(self, segs):
        self.walk_rtt()
        self.add("ack", segs, self.rtt, self.rtt * 1e-3 * segs / self.cwnd)
        for _ in range(segs):
            self.cwnd += 1.0 if self.cwnd < self.ssthresh else 1.0 / self.cwnd
        self.cwnd = min(self.cwnd, 2000.0)

    def loss_episode(self):
        gap = self.rtt * 1e-3 / self.cwnd
        for _ in range(uniform_int(self.rng, 3, 23)):
            self.add("dupack", 0, self.rtt, gap)
        self.ssthresh = max(2.0, self.cwnd / 2.0)
        self.cwnd = self.ssthresh
        for _ in range(uniform_int(self.rng, 0, 3)):
            self.add("ack", 1, self.rtt, gap)
        self.add("fullack", 0, self.rtt, gap)

    def rto(self):
        timeout_ms = round(1000.0 + 2000.0 * self.rng.random(), 3)
        self.add("rto", 0, timeout_ms, timeout_ms * 1e-3)
        self.ssthresh = max(2.0, self.cwnd / 2.0)
        self.cwnd = 1.0

    def build(self, events):
        while len(self.steps) <= events:
            self.ack(uniform_int(self.rng, 1, 3))
            u = self.rng.random()
            if u < P_RTO:
                self.rto()
            elif u < P_RTO + P_LOSS:
                self.loss_episode()
        return self.steps[: events + 1]


def make_file(seed, events, algorithms):
    script = Script(seed)
    steps = script.build(events)
    description = (
        f"random mix (gen_events.py, Python random seed {seed}; MSS and initial window drawn "
        "from the seed): ACKs of 1-3 segs with "
        "log-normal RTT random walk in [5,500] ms and occasional jumps; p=0.015 loss episode "
        "per ACK (3..23 dupacks, 0..3 partial ACKs, full ACK); p=0.002 RTO (1..3 s)"
    )
    params = {
        "mss": script.mss,
        "init_cwnd_segs": script.init_cwnd_segs,
        "init_ssthresh": INIT_SSTHRESH,
    }
    vectors = [
        {
            "algorithm": a,
            "scenario": f"random_gen_seed{seed}",
            "description": description,
            "params": params,
            "steps": steps,
        }
        for a in algorithms
    ]
    return {
        "generator": "validation/ns3/cca_vectors/gen_events.py + gen_vectors.cc",
        "simulator": "none",
        "seed": seed,
        "step_fields": [
            "t_s",
            "event",
            "segs_acked",
            "rtt_ms",
            "cwnd_bytes",
            "ssthresh_bytes",
            "state_after",
        ],
        "state_codes": {
            "0": "CA_OPEN",
            "1": "CA_DISORDER",
            "2": "CA_CWR",
            "3": "CA_RECOVERY",
            "4": "CA_LOSS",
        },
        "vectors": vectors,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--events", type=int, default=1000, help="steps after init (default 1000)")
    ap.add_argument(
        "--half",
        choices=["all", "even", "odd"],
        default="all",
        help="only the algorithms at even or odd positions of ALGORITHMS (smaller files)",
    )
    args = ap.parse_args()
    start = {"all": 0, "even": 0, "odd": 1}[args.half]
    step = 1 if args.half == "all" else 2
    algorithms = ALGORITHMS[start::step]
    print(json.dumps(make_file(args.seed, args.events, algorithms), separators=(",", ":")))


if __name__ == "__main__":
    main()
