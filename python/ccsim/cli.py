"""The `ccsim` command line.

ccsim run SCENARIO.toml [--set key.path=value ...] [--out DIR] [--json] [--no-plot]
ccsim study run STUDY.toml [--workers N | --cluster ADDRESS]; ccsim study query STUDY.toml "SQL"
ccsim reproduce --list | TARGET ... | --all
ccsim cca replay FILE.json [--out FILE] [--compare]
ccsim cca list
ccsim schema tcp|cca|series
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

# Heavy modules (pandas, pyarrow, matplotlib, duckdb) are imported inside the commands that
# need them: `ccsim --help`, `ccsim cca list` and a study's workers never pay for them.
from ccsim._ccsim import (
    ScenarioError,
    cca_algorithms,
    replay_cca,
    replay_compare,
    schema_markdown,
    tcp_keys,
)

EXIT_BAD_INPUT = 2


def _fmt(x: Any, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def summary_table(summary: dict[str, Any]) -> str:
    """The human-readable summary printed after a run."""
    head = (
        f"{'flow':>4} {'cca':<16} {'goodput Mb/s':>12} {'RTT mean':>9} {'p50':>7} "
        f"{'p95':>7} {'retx':>6} {'RTOs':>5} {'FCT s':>7}"
    )
    lines = [head, "-" * len(head)]
    for f in summary["flows"]:
        lines.append(
            f"{f['id']:>4} {f['cca']:<16} {f['goodput_mbps']:>12.2f} "
            f"{_fmt(f['rtt_mean_ms'], '.1f'):>9} "
            f"{_fmt(f['rtt_p50_ms'], '.1f'):>7} {_fmt(f['rtt_p95_ms'], '.1f'):>7} "
            f"{f['retx_segments']:>6} {f['timeouts']:>5} {_fmt(f['fct_s'], '.3f'):>7}"
        )
    lines.append("-" * len(head))
    jain = summary.get("jain_index")
    lines.append(
        f"total goodput {summary['total_goodput_mbps']:.2f} Mb/s"
        + (f", Jain's index {jain:.3f}" if jain is not None and len(summary["flows"]) > 1 else "")
    )
    drops = [q for q in summary["queues"] if q["drops"]]
    if drops:
        lines.append("drops: " + ", ".join(f"{q['id']} {q['drops']}" for q in drops))
    lines.extend(radio_lines(summary.get("radio") or {}))
    lines.extend(mesh_lines(summary.get("mesh") or {}))
    ip = summary.get("ip_reassembly")
    if ip:
        lines.append(
            f"IPv4 reassembly: {ip['datagrams']:,} datagrams, {ip['stale']} delivered with a "
            f"stale header (identification wrap), {ip['pending']} incomplete"
        )
    for c in summary.get("link_changes") or []:
        lines.append(
            f"flow {c['flow']} around the link change {c['window_s'][0]:g}-{c['window_s'][1]:g} s: "
            f"goodput before {_fmt(c['goodput_before_mbps'])}, during {_fmt(c['goodput_during_mbps'])}, "
            f"after {_fmt(c['goodput_after_mbps'])} Mb/s; recovery {_fmt(c['recovery_time_s'], '.2f')} s"
        )
    eps = summary["events_per_s"]
    lines.append(
        f"{summary['duration_s']:.1f} s simulated in {summary['wall_s']:.2f} s wall "
        f"({_fmt(summary['sim_speed'], '.0f')}x real time), {summary['events']:,} events "
        f"({_fmt(eps and eps / 1e6, '.1f')} M events/s)"
    )
    return "\n".join(lines)


def mesh_lines(mesh: dict[str, Any], max_nodes: int = 8) -> list[str]:
    """Summary lines of a `[mesh]` run (nothing otherwise); definitions in docs/outputs.md."""
    if not mesh:
        return []

    def stick(c: dict[str, Any] | None, unit: str) -> str:
        if not c:
            return "-"
        return (
            f"mean {c['mean']:.2f} {unit} (p20 {c['p20']:.2f}, p80 {c['p80']:.2f}, "
            f"min {c['min']:.2f}, max {c['max']:.2f})"
        )

    out = [
        f"mesh routing {mesh['routing']}: {mesh['finished_flows']}/{mesh['flows']} downloads "
        f"finished; finish time {stick(mesh['finish_time_s'], 's')}",
        f"mesh RTT per flow {stick(mesh['rtt_mean_ms'], 'ms')}; Jain's index of goodput "
        f"{_fmt(mesh['jain_goodput'], '.3f')}; {mesh['out_of_order_segments']:,} out-of-order "
        "segments",
        f"mesh drops: {mesh['dropped_queue']:,} queue, {mesh['dropped_no_route']:,} no route, "
        f"{mesh['dropped_ttl']:,} TTL; routing overhead {mesh['routing_overhead_bytes']:,} B "
        f"in {mesh['routing_overhead_packets']:,} packets"
        + (
            f"; converged at {mesh['convergence_s']:.2f} s"
            if mesh.get("convergence_s") is not None
            else ""
        ),
    ]
    udp = mesh.get("udp")
    if udp:
        out.append(
            f"mesh UDP: {udp['flows']} flows, {udp['delivered_pct']:.1f} % of "
            f"{udp['injected_bytes'] / 1e6:.1f} MB delivered"
        )
    busiest = sorted(mesh["nodes"], key=lambda n: -n["forwarded"])[:max_nodes]
    out.append(
        "mesh forwarded (busiest): "
        + ", ".join(
            f"{n['name']} {n['forwarded']:,}"
            + (
                f" (drops {n['dropped_queue'] + n['dropped_no_route'] + n['dropped_ttl']:,})"
                if n["dropped_queue"] + n["dropped_no_route"] + n["dropped_ttl"]
                else ""
            )
            for n in busiest
        )
    )
    return out


def radio_lines(radio: dict[str, Any], max_ues: int = 10) -> list[str]:
    """Summary lines for the radio side of a run (nothing without radio)."""
    out = []
    ues = radio.get("ues", [])
    for u in ues[:max_ues]:
        lost = u["lost_radio"] + u["lost_handover_flush"] + u["lost_forward_overflow"]
        out.append(
            f"radio {u['name']}: {u['handovers']} handovers, {u['rlc_drops']} RLC drops, "
            f"{lost} radio losses, {u['delivered_bytes'] / 1e6:.1f} MB delivered"
        )
    if len(ues) > max_ues:
        out.append(f"radio: {len(ues) - max_ues} more UEs in summary.json")
    for t in radio.get("trace_links", []):
        out.append(f"trace link {t['name']}: {t['delivered_packets']} packets, {t['drops']} drops")
    v = radio.get("vertical_handover")
    if v:
        out.append(
            f"vertical handover {v['links'][0]}/{v['links'][1]}: {v['lost_packets']} packets "
            f"lost in outages, {v['flushed_packets']} flushed from the old link"
        )
    return out


def cmd_run(args: argparse.Namespace) -> int:
    global _fast_exit
    from ccsim.preload import preload_output

    path = Path(args.scenario)
    if not path.is_file():
        print(f"error: scenario file not found: {path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    # numpy, pandas, pyarrow and matplotlib are imported while the scenario loads and the
    # simulation runs (it releases the GIL); series chunks wait in memory, raw, until they
    # are in, then a writer thread writes them. Nothing on this thread imports numpy first.
    preloading = preload_output(plots=not args.no_plot)
    from ccsim.chunk_writer import ChunkWriter
    from ccsim.output import OutDirError, ResultDir
    from ccsim.runner import _columns, load, run_sim

    out = Path(args.out) if args.out else Path("results") / path.stem
    try:
        sim = load(path, set=args.set)
    except ScenarioError as e:
        print(f"error in {path}: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from ccsim.progress import ProgressBar

    bar = ProgressBar(path.stem, enabled=None if not args.json else False)
    # A mesh run's plot is the candlesticks of its summary: no series to keep for it.
    plot_series = not args.no_plot and "mesh" not in json.loads(sim.scenario_json())
    # Plots are drawn from a decimated copy kept while streaming: memory does not grow with
    # the run's length (issue 18).
    plot_flows = plot_queues = plot_radio = None
    switch = sys.getswitchinterval()
    writer = ChunkWriter(preloading, lambda raw: write_chunk(raw))
    # Nothing may run between creating the partial directory and the `try` that removes it.
    try:
        rd = ResultDir(out, sim.link_names(), sim.radio_names())
    except (OutDirError, OSError) as e:
        writer.stop(wait=False)  # no chunk came
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

    def write_chunk(raw: tuple) -> None:
        """On the writer thread: one chunk into the Parquet files and the plots' copy."""
        nonlocal plot_flows, plot_queues, plot_radio
        if plot_series and plot_flows is None:
            from ccsim.downsample import Decimator

            plot_flows, plot_queues, plot_radio = Decimator(), Decimator(), Decimator()
        f, q, r = map(_columns, raw)
        rd.on_chunk(f, q, r)
        if plot_flows is not None:
            plot_flows.add(f)
            plot_queues.add(q)
            plot_radio.add(r)

    try:
        # The core returns to Python every slice and then needs the GIL, which the importing
        # and writing threads hold: a short switch interval hands it over in 0.5 ms, not 5.
        sys.setswitchinterval(min(switch, 0.0005))
        res = run_sim(sim, lambda *raw: writer.put(raw), bar, keep_series=False, raw_chunks=True)
        bar.close()
        writer.close()
        sys.setswitchinterval(switch)
        summary = res.summary
        scenario = res.scenario
        rd.finish(summary, scenario)
        if not args.no_plot:
            from ccsim.plots import mesh_candlestick, overview, radio_profile

            if summary.get("mesh"):
                # Many flows: the paper's candlesticks instead of one line per flow.
                mesh_candlestick(summary, rd.plots_dir / "candlestick.png")
            else:
                fs = plot_flows.frame()
                overview(
                    fs,
                    plot_queues.frame(),
                    summary,
                    rd.plots_dir / "overview.png",
                    title=summary.get("scenario"),
                )
            if rd.has_radio and plot_radio is not None:
                radio_profile(
                    plot_radio.frame(),
                    fs,
                    summary,
                    rd.plots_dir / "radio_profile.png",
                    title=summary.get("scenario"),
                )
        final = rd.commit()
        _fast_exit = True
    except OSError as e:
        bar.close()
        writer.stop()
        rd.abort()
        # Name the directory the user gave, not the hidden partial one.
        print(f"error: writing the results to {out} failed: {e.strerror or e}", file=sys.stderr)
        return 1
    except BaseException:
        bar.close()
        writer.cancel()  # the results are being removed: no need to wait for the imports
        rd.abort()
        raise
    finally:
        sys.setswitchinterval(switch)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(summary_table(summary))
        main_plot = "candlestick.png" if summary.get("mesh") else "overview.png"
        plots = "" if args.no_plot else f"  plot: {final}/plots/{main_plot}"
        if not args.no_plot and (final / "plots" / "radio_profile.png").exists():
            plots += f", {final}/plots/radio_profile.png"
        print(f"results: {final}/" + plots)
    return 0


def cmd_cca_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        print(f"error: replay file not found: {path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    text = path.read_text(encoding="utf-8")
    try:
        if args.compare:
            # The comparison is the core's (`replay::compare`), as `cargo test -p ccsim-cca`
            # runs it.
            all_equal, equal, total, report = replay_compare(text)
        else:
            ours = replay_cca(text)
    except ValueError as e:
        print(f"error in {path}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.compare:
        n = len(json.loads(text)["vectors"])
        print(f"{equal}/{total} steps equal (cwnd, ssthresh, state) across {n} vectors")
        print(report, end="")
        return 0 if all_equal else 1
    if args.out:
        Path(args.out).write_text(ours + "\n", encoding="utf-8")
    else:
        print(ours)
    return 0


def cmd_cca_list(_: argparse.Namespace) -> int:
    for short, typeid in cca_algorithms():
        print(f"{short:<14} {typeid}")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    print(schema_markdown(args.section), end="")
    return 0


def tcp_keys_help() -> str:
    """The `[tcp]` keys for `ccsim run --help`, from the schema's doc comments."""
    lines = ["[tcp] keys (also per flow as flows.N.tcp.KEY; `ccsim schema tcp` for defaults):"]
    for key, kind, doc in tcp_keys():
        first = doc.split(". ")[0].split("\n")[0].rstrip(".")
        lines.append(f"  tcp.{key:<36} {kind}: {first}")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ccsim", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser(
        "run",
        help="run a scenario file",
        epilog=tcp_keys_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("scenario", help="scenario file (.toml or .json)")
    r.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY.PATH=VALUE",
        help="override a scenario key (repeatable)",
    )
    r.add_argument("--out", help="results directory (default: results/<scenario name>)")
    r.add_argument(
        "--json", action="store_true", help="print the summary JSON to stdout instead of the table"
    )
    r.add_argument("--no-plot", action="store_true", help="skip plots/overview.png")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("cca", help="congestion-control tools")
    csub = c.add_subparsers(dest="cca_command", required=True)
    rp = csub.add_parser(
        "replay", help="replay a unit-level vector file through ccsim's algorithms"
    )
    rp.add_argument("file")
    rp.add_argument("--out", help="write the replayed file here instead of stdout")
    rp.add_argument(
        "--compare",
        action="store_true",
        help="compare with the file's own values; exit 1 on any difference",
    )
    rp.set_defaults(func=cmd_cca_replay)
    ls = csub.add_parser("list", help="list the algorithms")
    ls.set_defaults(func=cmd_cca_list)
    sc = sub.add_parser(
        "schema", help="print a generated reference table (Markdown) from the schema"
    )
    sc.add_argument(
        "section",
        choices=["tcp", "cca", "series"],
        help="tcp: the [tcp] keys; cca: every algorithm's cca_params; series: time-series columns",
    )
    sc.set_defaults(func=cmd_schema)
    from ccsim.cli_study import add_commands

    add_commands(sub)
    return p


#: Exit status of a run stopped by SIGINT / SIGTERM (128 + signal number, as shells do).
EXIT_SIGINT = 130
EXIT_SIGTERM = 143


class Terminated(Exception):
    """SIGTERM arrived: unwind like Ctrl-C so partial results are removed."""


def _on_sigterm(_signum: int, _frame: Any) -> None:
    raise Terminated


def main(argv: list[str] | None = None) -> int:
    import signal
    import threading

    args = parser().parse_args(argv)
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if in_main else None
    global _fast_exit
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted: no results written", file=sys.stderr)
        _fast_exit = True
        return EXIT_SIGINT
    except Terminated:
        print("terminated: no results written", file=sys.stderr)
        _fast_exit = True
        return EXIT_SIGTERM
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


#: Set by a `ccsim run` that wrote its results, and by any interrupted command (whose
#: partial results are removed by then): nothing is left to clean up at exit. After an
#: interrupt the preload thread may still be inside a C extension's import (numpy, pyarrow),
#: and the interpreter's teardown under it crashed with SIGSEGV after the message (CI, twice).
_fast_exit = False


def entry() -> None:
    """The `ccsim` console command: :func:`main`, then, after a `ccsim run`, an exit without
    the interpreter's teardown of pandas, pyarrow and matplotlib (~0.1 s of CPU; issue 14).
    Every result file is closed and committed by then; only the standard streams are flushed."""
    rc = main()
    if _fast_exit:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:
            rc = 120  # what Python's own exit returns when flushing stdout fails
        os._exit(rc)
    sys.exit(rc)


if __name__ == "__main__":
    entry()
