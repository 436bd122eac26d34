"""Instructions per packet-hop by part of the per-hop path, from two callgrind profiles.

    valgrind --tool=callgrind --callgrind-out-file=before.cg OLD_BIN scenario.json
    valgrind --tool=callgrind --callgrind-out-file=after.cg NEW_BIN scenario.json
    python benches/callgrind_groups.py before.cg after.cg --hops 370101

Self costs (`callgrind_annotate --inclusive=no`) are grouped by the source file the
instructions come from, so code inlined into another function still counts where it is
written; standard-library code (bounds checks, copies, loops) counts for the function it is
inlined into. `--hops`: link transmissions of the run (case A CUBIC 10 s: 370,101).
"""

from __future__ import annotations

import argparse
import re
import subprocess

LINE = re.compile(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S+?):(.*)")
QUEUE = "event queue (heap push/pop, clock)"
LINES = "delay lines + drop-tail FIFO storage"
PATH = "network path (dispatch, forward, route, drop-tail queue, link)"
TCP = "TCP endpoints, CCA, RTT metrics, packet build"
LOOP = "std code inlined into the run loop (bounds checks, copies, loops)"
OTHER = "other (setup, output, probes)"


def part(file: str, function: str) -> str:
    if re.search(r"quad_heap|event_queue", file):
        return QUEUE
    if re.search(r"delay_line|ring\.rs|vec_deque", file):
        return LINES
    if re.search(
        r"world/(forward|mod)\.rs|ccsim-net/src/(link|queue|routing)\.rs|engine/src/routing\.rs",
        file,
    ):
        return PATH
    if re.search(
        r"ccsim-tcp|ccsim-cca|pow|rtt_stats|flow_metrics|world/tcp\.rs|packet\.rs|memmove|btree",
        file,
    ):
        return TCP
    if file.startswith("/rustc/"):
        if "run_until" in function:
            return LOOP
        if re.search(r"World<P>>::(forward|send_on|start_tx|arrive)", function):
            return PATH
        if re.search(r"DelayLine|Ring", function):
            return LINES
        return TCP
    return OTHER


def parts(profile: str) -> dict[str, int]:
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", profile],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total: dict[str, int] = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        k = part(m.group(2), m.group(3))
        total[k] = total.get(k, 0) + int(m.group(1).replace(",", ""))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--hops", type=int, required=True)
    args = ap.parse_args()
    a, b = parts(args.before), parts(args.after)
    print("| part | before, instr/hop | after, instr/hop | change |")
    print("|---|---|---|---|")
    for k in sorted(set(a) | set(b), key=lambda k: -a.get(k, 0)):
        x, y = a.get(k, 0) / args.hops, b.get(k, 0) / args.hops
        print(f"| {k} | {x:.0f} | {y:.0f} | {100 * (y - x) / max(x, 1):+.0f} % |")
    x, y = sum(a.values()) / args.hops, sum(b.values()) / args.hops
    print(f"| total | {x:.0f} | {y:.0f} | {100 * (y - x) / x:+.1f} % |")


if __name__ == "__main__":
    main()
