"""Running commands: in a namespace, at a real-time priority, with a log; stopping them."""

from __future__ import annotations

import shlex
import signal
import subprocess
from pathlib import Path

from .config import NS, PRIO_KSOFTIRQD


def sh(
    cmd: list[str], log: list[str] | None = None, check: bool = True, timeout: float = 30.0
) -> str:
    if log is not None:
        log.append(shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def nsx(ns: str, *cmd: str) -> list[str]:
    return ["ip", "netns", "exec", NS[ns], *cmd]


def rt(prio: int, cmd: list[str]) -> list[str]:
    return ["chrt", "-f", str(prio), *cmd]


def stop_process(
    p: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 5.0
) -> None:
    if p is None or p.poll() is not None:
        return
    p.send_signal(sig)
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait(timeout=timeout)


def ksoftirqd_pids() -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().startswith("ksoftirqd/"):
                    pids.append(int(d.name))
            except OSError:
                pass
    return sorted(pids)


def ksoftirqd_realtime(on: bool) -> None:
    """SCHED_FIFO for the softirq threads during a run; SCHED_OTHER (their default) after."""
    for pid in ksoftirqd_pids():
        args = (
            ["chrt", "-f", "-p", str(PRIO_KSOFTIRQD), str(pid)]
            if on
            else ["chrt", "-o", "-p", "0", str(pid)]
        )
        subprocess.run(args, capture_output=True, timeout=10)
