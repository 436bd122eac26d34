"""The TUN delay line (delayline.c, built by setup.sh): one process holding both TUN devices,
forwarding each packet after exactly the case's one-way delay in both directions."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from .config import DELAYLINE, NS, PRIO_DELAYLINE
from .shell import nsx


def start(delay_ms: float, stats: Path, log: list[str], gso: bool = False) -> subprocess.Popen:
    """Starts the delay line and waits for its "ready"; it writes its timing errors to `stats`
    when it exits."""
    cmd = nsx(
        "r1",
        str(DELAYLINE),
        "--tun-a",
        "tuna",
        "--tun-b",
        "tunb",
        "--netns-b",
        f"/run/netns/{NS['r2']}",
        "--delay-us",
        str(int(round(delay_ms * 1000))),
        "--stats",
        str(stats),
        "--rt-priority",
        str(PRIO_DELAYLINE),
        *(["--vnet-hdr", "1"] if gso else []),
    )
    log.append(shlex.join(cmd))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline() if p.stdout else ""
    if line.strip() != "ready":
        p.kill()
        raise RuntimeError(
            f"delayline did not start: {line!r} {p.stderr.read() if p.stderr else ''}"
        )
    return p
