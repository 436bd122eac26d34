"""Running a benchmarked program: one child process measured with wait4() (wall time, CPU
time, peak RSS), and the Rust-only ccsim driver the benchmarks time."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CCSIM_BIN = ROOT / "target" / "release" / "ccsim-run"


def measure(cmd: list[str], cwd: Path = ROOT) -> tuple[float, float, str, float]:
    """Runs `cmd`; returns (wall seconds, ru_maxrss in MB, stdout, CPU seconds).

    The command runs as a child of a small `sh`, never as a fork of this Python process:
    ru_maxrss (and getrusage(RUSAGE_SELF) inside the program) would otherwise count the
    interpreter's memory copied by fork() before exec()."""
    cmd = ["/bin/sh", "-c", '"$@"; exit $?', "sh", *cmd]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        actions = [
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
            (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
        ]
        exe = cmd[0] if os.sep in cmd[0] else shutil.which(cmd[0])
        old = os.getcwd()
        os.chdir(cwd)
        try:
            t0 = time.perf_counter()
            pid = os.posix_spawn(exe, cmd, os.environ, file_actions=actions)
            _, status, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - t0
        finally:
            os.chdir(old)
        out.seek(0)
        text = out.read().decode()
        err.seek(0)
        # Kept only to explain a failure: the last lines say why the child stopped.
        err_tail = err.read().decode(errors="replace").splitlines()[-20:]
    if os.waitstatus_to_exitcode(status) != 0:
        detail = "\n".join(err_tail)
        raise RuntimeError(f"command failed ({status}): {shlex.join(cmd)}\n{detail}")
    return wall, ru.ru_maxrss / 1024.0, text, ru.ru_utime + ru.ru_stime


def ensure_ccsim_bin() -> None:
    subprocess.run(
        ["cargo", "build", "--release", "-q", "--bin", "ccsim-run"], cwd=ROOT, check=True
    )
