#!/usr/bin/env python3
"""Fill a CCA replay file (shared/reference/cca-replay-format.md) with ns-3.44's values.

Reads the event columns (t_s, event, segs_acked, rtt_ms) of every vector, runs them through
ns-3.44's TcpCongestionOps objects with the gen_vectors C++ program, and writes the same file
with ns-3's cwnd, ssthresh and state after every step, in the shipped layout (compact JSON, one
vector per line).

    python3 gen_vectors.py --bin ./gen_vectors IN.json > OUT.json
"""

import argparse
import json
import subprocess
import sys


def to_lines(data):
    out = []
    for v in data["vectors"]:
        p = v["params"]
        out.append(f"V {v['algorithm']} {p['mss']} {p['init_cwnd_segs']} {p['init_ssthresh']}")
        for t_s, event, segs, rtt_ms, *_ in v["steps"]:
            t_ns = round(t_s * 1e9)
            rtt_ns = round(rtt_ms * 1e6)
            out.append(f"S {t_ns} {event} {segs} {rtt_ns}")
        out.append("E")
    return "\n".join(out) + "\n"


def merge(data, text):
    results, cur = [], None
    for line in text.splitlines():
        if line == "V":
            cur = []
        elif line == "E":
            results.append(cur)
        elif line.startswith("R "):
            cur.append([int(x) for x in line.split()[1:]])
    if len(results) != len(data["vectors"]):
        sys.exit(f"gen_vectors returned {len(results)} vectors for {len(data['vectors'])}")
    for v, res in zip(data["vectors"], results):
        steps = []
        for step, (segs, cwnd, ssthresh, state) in zip(v["steps"], res):
            steps.append([step[0], step[1], segs, step[3], cwnd, ssthresh, state])
        v["steps"] = steps
    data["simulator"] = "ns-3.44"
    return data


def dump(data):
    head = {k: v for k, v in data.items() if k != "vectors"}
    compact = dict(separators=(",", ":"), ensure_ascii=False)
    head_text = json.dumps(head, **compact)[:-1] + ',"vectors":['
    body = ",\n".join(json.dumps(v, **compact) for v in data["vectors"])
    return head_text + body + "]}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="./gen_vectors", help="the compiled gen_vectors program")
    ap.add_argument("input", help="replay file whose event columns are replayed")
    args = ap.parse_args()
    with open(args.input) as f:
        data = json.load(f)
    run = subprocess.run([args.bin], input=to_lines(data), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"gen_vectors failed ({run.returncode}): {run.stderr}")
    sys.stdout.write(dump(merge(data, run.stdout)))


if __name__ == "__main__":
    main()
