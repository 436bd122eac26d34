#!/usr/bin/env python3
"""Bulk TCP flows for the Linux-kernel reference: a sender and a sink.

Both sides run inside their own network namespace (started by run_reference.py
with `ip netns exec`) and share the machine's CLOCK_MONOTONIC, so the harness
gives both the same start instant and deadline.

    flows.py sink --port P --flows N --deadline T --out sink.json
    flows.py send --dst ADDR --port P --flows N --cca cubic --start-at T0 --deadline T \
                  --poll-ms 100 --out send.json

* send: at T0 opens N connections (TCP_CONGESTION set on each socket before
  connect), writes as fast as the socket takes data until T, and polls
  TCP_INFO of every socket every --poll-ms (srtt, cwnd, retransmissions, ...).
  The last poll is taken at T exactly.
* sink: accepts N connections, reads everything, and at T reads each socket's
  TCP_INFO `tcpi_bytes_received` (in-order bytes the kernel has received),
  which is the goodput numerator.
"""

from __future__ import annotations

import argparse
import json
import selectors
import socket
import struct
import threading
import time

# struct tcp_info from include/uapi/linux/tcp.h (Linux >= 6.7 layout; fields
# are naturally aligned, so there is no padding to account for).
_TCP_INFO = struct.Struct("<8B24I4Q2I4IQ3Q2I2Q2I4I2HI")
_FIELDS = (
    "state ca_state retransmits probes backoff options wscale flags "
    "rto ato snd_mss rcv_mss unacked sacked lost retrans fackets "
    "last_data_sent last_ack_sent last_data_recv last_ack_recv "
    "pmtu rcv_ssthresh rtt rttvar snd_ssthresh snd_cwnd advmss reordering "
    "rcv_rtt rcv_space total_retrans "
    "pacing_rate max_pacing_rate bytes_acked bytes_received "
    "segs_out segs_in notsent_bytes min_rtt data_segs_in data_segs_out "
    "delivery_rate busy_time rwnd_limited sndbuf_limited delivered delivered_ce "
    "bytes_sent bytes_retrans dsack_dups reord_seen rcv_ooopack snd_wnd rcv_wnd rehash "
    "total_rto total_rto_recoveries total_rto_time"
).split()
assert len(_FIELDS) == len(_TCP_INFO.unpack(bytes(_TCP_INFO.size)))


def tcp_info(sock: socket.socket) -> dict[str, int]:
    raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCP_INFO.size)
    if len(raw) < _TCP_INFO.size:
        raise RuntimeError(f"kernel returned {len(raw)} B of tcp_info, need {_TCP_INFO.size}")
    return dict(zip(_FIELDS, _TCP_INFO.unpack(raw)))


def sleep_until(t: float) -> None:
    while True:
        d = t - time.monotonic()
        if d <= 0:
            return
        time.sleep(min(d, 0.05))


def run_sink(a: argparse.Namespace) -> None:
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", a.port))
    ls.listen(a.flows + 4)
    ls.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(ls, selectors.EVENT_READ)
    print("listening", flush=True)
    buf = bytearray(4 << 20)
    conns: list[dict] = []
    while True:
        now = time.monotonic()
        if now >= a.deadline:
            break
        for key, _ in sel.select(timeout=min(0.05, a.deadline - now)):
            if key.fileobj is ls:
                c, peer = ls.accept()
                c.setblocking(False)
                rec = {"sock": c, "peer": list(peer), "accepted_at": time.monotonic(), "read": 0}
                conns.append(rec)
                sel.register(c, selectors.EVENT_READ, rec)
            else:
                rec = key.data
                try:
                    n = rec["sock"].recv_into(buf)
                except BlockingIOError:
                    continue
                if n == 0:
                    sel.unregister(rec["sock"])
                rec["read"] += n
    t_end = time.monotonic()
    out = []
    for rec in conns:
        ti = tcp_info(rec["sock"])
        out.append(
            {
                "peer": rec["peer"],
                "accepted_at": rec["accepted_at"],
                "bytes_received": ti["bytes_received"],
                "app_bytes_read": rec["read"],
                "rcv_ooopack": ti["rcv_ooopack"],
                "snd_mss": ti["snd_mss"],
                "rcv_mss": ti["rcv_mss"],
            }
        )
    with open(a.out, "w") as f:
        json.dump({"deadline": a.deadline, "t_end": t_end, "flows": out}, f)
    for rec in conns:
        rec["sock"].close()


def _flow(
    sock: socket.socket, dst: tuple, stop: threading.Event, chunk: bytes, t_connect: list, i: int
) -> None:
    t_connect[i] = time.monotonic()
    sock.connect(dst)
    sock.settimeout(0.05)
    view = memoryview(chunk)
    while not stop.is_set():
        try:
            sock.send(view)
        except (TimeoutError, BlockingIOError):
            continue
        except OSError:
            return


def run_send(a: argparse.Namespace) -> None:
    socks = []
    for _ in range(a.flows):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, a.cca.encode())
        socks.append(s)
    stop = threading.Event()
    chunk = bytes(1 << 20)
    t_connect = [0.0] * len(socks)
    # Every flow connects at the same instant from its own thread (ns-3 starts all at t = 0).
    threads = [
        threading.Thread(
            target=_flow, args=(s, (a.dst, a.port), stop, chunk, t_connect, i), daemon=True
        )
        for i, s in enumerate(socks)
    ]
    sleep_until(a.start_at)
    for t in threads:
        t.start()
    samples: list[list] = [[] for _ in socks]
    poll = a.poll_ms / 1000.0
    nxt = a.start_at + poll
    while True:
        t = min(nxt, a.deadline)
        sleep_until(t)
        now = time.monotonic()
        for i, s in enumerate(socks):
            ti = tcp_info(s)
            samples[i].append(
                [
                    round(now - a.start_at, 4),
                    ti["rtt"],
                    ti["snd_cwnd"],
                    ti["total_retrans"],
                    ti["ca_state"],
                    ti["snd_ssthresh"],
                    ti["delivery_rate"],
                ]
            )
        if t >= a.deadline:
            break
        nxt += poll
    final = [tcp_info(s) for s in socks]
    stop.set()
    for t in threads:
        t.join(timeout=1.0)
    out = {
        "start_at": a.start_at,
        "deadline": a.deadline,
        "cca": a.cca,
        "connect_at": t_connect,
        "sample_fields": [
            "t_s",
            "srtt_us",
            "cwnd",
            "total_retrans",
            "ca_state",
            "ssthresh",
            "delivery_rate_Bps",
        ],
        "flows": [
            {"local_port": s.getsockname()[1], "samples": samples[i], "final_tcp_info": final[i]}
            for i, s in enumerate(socks)
        ],
    }
    with open(a.out, "w") as f:
        json.dump(out, f)
    for s in socks:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="mode", required=True)
    sk = sub.add_parser("sink")
    sk.add_argument("--port", type=int, required=True)
    sk.add_argument("--flows", type=int, required=True)
    sk.add_argument("--deadline", type=float, required=True)
    sk.add_argument("--out", required=True)
    sd = sub.add_parser("send")
    sd.add_argument("--dst", required=True)
    sd.add_argument("--port", type=int, required=True)
    sd.add_argument("--flows", type=int, required=True)
    sd.add_argument("--cca", required=True)
    sd.add_argument("--start-at", type=float, required=True)
    sd.add_argument("--deadline", type=float, required=True)
    sd.add_argument("--poll-ms", type=float, default=100.0)
    sd.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.mode == "sink":
        run_sink(a)
    else:
        run_send(a)


if __name__ == "__main__":
    main()
