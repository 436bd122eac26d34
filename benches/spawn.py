"""Running a benchmarked program: one child process measured with wait4() (wall time, CPU
time, peak RSS), and the Rust-only ccsim driver the benchmarks time: by default the build
`scripts/setup.sh` shipped (profile-guided when it could, see `shipped_ccsim_bin`)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CCSIM_BIN = ROOT / "target" / "release" / "ccsim-run"
PGO_BIN = ROOT / "target" / "pgo" / "release" / "ccsim-run"
# Written by scripts/setup.sh: "pgo", or "normal" and on the next line why not PGO.
SHIPPED_MARK = ROOT / "target" / "shipped-build"
PGO_LABEL = "PGO build (trained on ns-3 cases D, E and 3 experiments, never on A, B, C)"


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


def shipped_build() -> tuple[str, str]:
    """("pgo", "") or ("normal", why not PGO): the build scripts/setup.sh last installed here."""
    if not SHIPPED_MARK.exists():
        return "normal", "scripts/setup.sh has not run in this tree"
    kind, _, why = SHIPPED_MARK.read_text().partition("\n")
    return kind.strip(), why.strip()


def ccsim_bin_and_label(given: Path | None = None) -> tuple[Path, str]:
    """The ccsim-run to time and what build it is, for the table header: `given` if set (a
    `--ccsim-bin`), else the shipped build's, built first if stale. For PGO that is
    scripts/build_pgo.sh, which makes a new profile only if the sources changed since the
    last one, so a benchmark never times a binary optimised for other code."""
    kind, why = shipped_build()
    if given is not None:
        path = given.resolve()
    elif kind == "pgo":
        subprocess.run(["bash", "scripts/build_pgo.sh"], cwd=ROOT, check=True, stdout=sys.stderr)
        path = PGO_BIN
    else:
        ensure_ccsim_bin()
        path = CCSIM_BIN
    if path == PGO_BIN:
        label = PGO_LABEL
    elif path == CCSIM_BIN:
        label = "normal build, not PGO" + (f" ({why})" if kind == "normal" else "")
    else:
        label = "given binary, build unknown"
    if path == (PGO_BIN if kind == "pgo" else CCSIM_BIN):
        label += ", the one scripts/setup.sh ships"
    return path, f"{label}: {os.path.relpath(path, ROOT)}"
