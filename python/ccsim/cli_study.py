"""The `ccsim study` and `ccsim reproduce` subcommands (registered by ccsim.cli).

ccsim study run FILE [--workers N | --cluster ADDRESS] [--store DIR]
ccsim study query FILE "SQL" [--store DIR] [--csv]
ccsim reproduce --list | TARGET ... | --all [--workers N] [--cluster ADDRESS] [--no-progress]

Everything heavy (pyarrow, pandas, duckdb, dask, matplotlib) is imported inside the commands.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2


def _load(path_str: str):  # noqa: ANN202 - returns a Study
    from ccsim.study import StudyError, load_study

    try:
        return load_study(path_str)
    except (StudyError, FileNotFoundError) as e:
        print(f"error in {path_str}: {e}", file=sys.stderr)
        return None


def _store(study, store_arg: str | None):  # noqa: ANN001, ANN202
    from ccsim.store import ResultsStore
    from ccsim.study_run import default_store

    return ResultsStore(Path(store_arg) if store_arg else default_store(study))


def cmd_study_run(args: argparse.Namespace) -> int:
    from ccsim._ccsim import ScenarioError
    from ccsim.study_run import run_study

    study = _load(args.file)
    if study is None:
        return EXIT_BAD_INPUT
    store = _store(study, args.store)

    def report_failure(labels: dict, msg: str) -> None:
        print(f"\nrun failed {labels}: {msg}", file=sys.stderr)

    try:
        rep = run_study(
            study, store, workers=args.workers, cluster=args.cluster, on_failure=report_failure
        )
    except ScenarioError as e:
        print(f"error in {study.path} (scenario {study.scenario}): {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT
    state = "interrupted" if rep.interrupted else "finished"
    print(
        f"study {study.name} {state}: {rep.done} runs done, {rep.skipped} already in the store, "
        f"{len(rep.failed)} failed, of {rep.total}; {rep.wall_s:.1f} s"
    )
    print(f'store: {store.root}/  (ccsim study query {args.file} "SELECT * FROM runs")')
    if rep.interrupted:
        return 130
    return 1 if rep.failed else 0


def cmd_study_query(args: argparse.Namespace) -> int:
    study = _load(args.file)
    if study is None:
        return EXIT_BAD_INPUT
    store = _store(study, args.store)
    if not store.finished():
        print(
            f"error: no finished runs in {store.root}; run `ccsim study run {args.file}`",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    import duckdb

    try:
        df = store.query(args.sql)
    except duckdb.Error as e:
        print(f"error in the query: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.csv:
        df.to_csv(sys.stdout, index=False)
    else:
        import pandas as pd

        with pd.option_context("display.max_rows", 200, "display.width", 200):
            print(df.to_string(index=False))
    return 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    from ccsim import reproduce

    return reproduce.main(args)


def add_commands(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("study", help="run a study (a grid of runs) and query its results")
    ssub = s.add_subparsers(dest="study_command", required=True)
    r = ssub.add_parser("run", help="run every unfinished run of a study file")
    r.add_argument("file", help="study file (studies/*.toml)")
    r.add_argument(
        "--workers", type=int, default=None, help="local worker threads (default: all cores)"
    )
    r.add_argument("--cluster", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://10.0.0.5:8786")
    r.add_argument("--store", help="results store (default: results/studies/<study name>)")
    r.set_defaults(func=cmd_study_run)
    q = ssub.add_parser(
        "query", help="SQL over a study's store (views: runs, series, cells, timing)"
    )
    q.add_argument("file", help="study file")
    q.add_argument("sql", help='e.g. "SELECT cca, avg(goodput_mbps) FROM runs GROUP BY cca"')
    q.add_argument("--store", help="results store (default: results/studies/<study name>)")
    q.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    q.set_defaults(func=cmd_study_query)
    rp = sub.add_parser("reproduce", help="reproduce a seed paper's figure or table")
    rp.add_argument("targets", nargs="*", help="targets (see --list), e.g. seed002-table2")
    rp.add_argument("--list", action="store_true", help="list every figure and table of the papers")
    rp.add_argument(
        "--all", action="store_true", help="run every runnable target, write docs/reproductions.md"
    )
    rp.add_argument(
        "--workers", type=int, default=None, help="local worker threads (default: all cores)"
    )
    rp.add_argument("--cluster", metavar="ADDRESS", help="Dask scheduler address")
    rp.add_argument(
        "--out", default="results/reproduce", help="figures and tables (default: results/reproduce)"
    )
    rp.add_argument("--doc", default="docs/reproductions.md", help="--all writes this file")
    rp.add_argument(
        "--no-progress",
        dest="progress",
        action="store_const",
        const=False,
        default=None,
        help="no progress lines on stderr (default: shown on a terminal only)",
    )
    rp.set_defaults(func=cmd_reproduce)
