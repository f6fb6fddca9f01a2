"""``c4tui analyze`` and ``c4tui selfplay``: the analysis search (MILTON's) from the shell.

``analyze`` prints each iteration of the iterative deepening as it completes (a rich table,
or one JSON object per line with ``--json``), then the best move and principal variation.
``selfplay`` plays MILTON's self-play experiment between two option sets.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time

import typer

SWITCHES = ("pvs", "mtdf", "aspiration", "quiescence", "extensions", "killers",
            "recognition", "use_book", "threat_ordering")


def _fail(msg: str) -> None:
    typer.echo(f"c4tui: {msg}", err=True)
    raise typer.Exit(2)


def parse_option_set(text: str, nodes: int | None, hash_mb: float):
    """``"no-quiescence,killers"`` -> SearchOptions (switch names as in SearchOptions;
    ``book`` stands for ``use_book``)."""
    from c4tui.engine.search import SearchOptions

    opts = SearchOptions(node_limit=nodes, hash_mb=hash_mb)
    changes: dict[str, bool] = {}
    for raw in text.replace(" ", "").split(","):
        if not raw:
            continue
        on = not raw.startswith("no-")
        name = (raw[3:] if not on else raw).replace("-", "_")
        if name == "book":
            name = "use_book"
        if name not in SWITCHES:
            raise ValueError(f"option set {text!r}: unknown switch {raw!r} "
                             f"(known: {', '.join(SWITCHES)})")
        changes[name] = on
    return dataclasses.replace(opts, **changes)


def _iteration_json(rep) -> dict:
    d = dataclasses.asdict(rep)
    d["type"] = "iteration"
    d["best_move"] = rep.best_move + 1
    d["pv"] = [c + 1 for c in rep.pv]
    d["elapsed"] = round(rep.elapsed, 4)
    d["total_elapsed"] = round(rep.total_elapsed, 4)
    d["hit_rate"] = round(rep.hit_rate, 4)
    d["tt_fill"] = round(rep.tt_fill, 4)
    return d


def _bound(v: int) -> str:
    from c4tui.engine.analysis_eval import INF

    return "-inf" if v <= -INF else "+inf" if v >= INF else str(v)


def _table(reps, ply: int):
    from rich.table import Table

    from c4tui.engine.scores import describe

    t = Table(title="iterative deepening (MILTON)", header_style="bold", pad_edge=False,
              box=None)
    for col in ("d", "window", "fh/fl", "score", "band", "mv", "nodes", "kn/s", "hit",
                "fill", "sec", "pv"):
        t.add_column(col, justify="left" if col in ("band", "pv", "window", "score") else "right",
                     no_wrap=True)
    for r in reps:
        sc = describe(r.score, ply) if r.band != "heuristic" else f"{r.score:+d}"
        t.add_row(str(r.depth), f"{_bound(r.alpha)},{_bound(r.beta)}",
                  f"{r.fail_highs}/{r.fail_lows}", sc, r.band[:5], "abcdefg"[r.best_move],
                  f"{r.nodes:,}", f"{r.nps / 1000:,.0f}", f"{100 * r.hit_rate:.0f}%",
                  f"{100 * r.tt_fill:.1f}%", f"{r.elapsed:.3f}",
                  "".join(str(c + 1) for c in r.pv))
    return t


def register(app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""

    @app.command("analyze")
    def analyze(
        moves: str = typer.Argument("", help="moves played so far: 4453 or 'd1 d2 e1'"),
        depth: int | None = typer.Option(None, "--depth", help="maximum depth (plies)"),
        nodes: int = typer.Option(1_000_000, "--nodes", help="node limit; 0 for none"),
        pvs: bool = typer.Option(True, "--pvs/--no-pvs", help="principal-variation search"),
        mtdf: bool = typer.Option(False, "--mtdf/--no-mtdf", help="MTD(f) driver"),
        aspiration: bool = typer.Option(True, "--aspiration/--no-aspiration"),
        quiescence: bool = typer.Option(True, "--quiescence/--no-quiescence"),
        extensions: bool = typer.Option(False, "--extensions/--no-extensions"),
        killers: bool = typer.Option(False, "--killers/--no-killers"),
        recognition: bool = typer.Option(True, "--recognition/--no-recognition"),
        book: bool = typer.Option(True, "--book/--no-book", help="use the opening book"),
        threat_ordering: bool = typer.Option(False, "--threat-ordering/--no-threat-ordering",
                                             help="order moves by threats made (not MILTON's)"),
        hash_mb: float = typer.Option(16, "--hash-mb", help="transposition tables, MB"),
        as_json: bool = typer.Option(False, "--json", help="one JSON object per line"),
    ) -> None:
        """Run MILTON's iterative-deepening analysis on a position."""
        from c4tui.engine.position import IllegalMoveError, Position
        from c4tui.engine.search import SearchController, SearchOptions

        try:
            pos = Position.parse(moves)
        except IllegalMoveError as e:
            _fail(f"analyze: {e}")
        if pos.is_over:
            _fail("analyze: the game is over, there is nothing to analyze")
        if nodes < 0:
            _fail(f"analyze: --nodes {nodes}: expected 0 (no limit) or a positive count")
        try:
            opts = SearchOptions(max_depth=depth, node_limit=nodes or None, pvs=pvs, mtdf=mtdf,
                                 aspiration=aspiration, quiescence=quiescence,
                                 extensions=extensions, killers=killers,
                                 recognition=recognition, use_book=book, hash_mb=hash_mb,
                                 threat_ordering=threat_ordering)
        except ValueError as e:
            _fail(f"analyze: {e}")

        ctl = SearchController()
        ctl.start(pos, opts)
        shown = 0
        try:
            if as_json:
                while True:
                    done = ctl.wait(0.05)
                    its = ctl.snapshot().iterations
                    for r in its[shown:]:
                        print(json.dumps(_iteration_json(r)), flush=True)
                    shown = len(its)
                    if done:
                        break
            else:
                from rich.console import Console
                from rich.live import Live

                console = Console()
                if not console.is_terminal:
                    console = Console(width=max(console.width, 120))
                with Live(_table([], pos.ply), console=console, refresh_per_second=8) as live:
                    while True:
                        done = ctl.wait(0.1)
                        snap = ctl.snapshot()
                        if len(snap.iterations) != shown or done:
                            shown = len(snap.iterations)
                            live.update(_table(snap.iterations, pos.ply))
                        if done:
                            break
                console.print()
        except KeyboardInterrupt:
            ctl.stop()
            ctl.wait(5)
        ctl.close()
        if ctl.error is not None:
            _fail(f"analyze: internal error: {ctl.error}")
        res = ctl.result
        if res is None:
            _fail("analyze: the search ended without a result")
        pv = [c + 1 for c in res.pv]
        if as_json:
            print(json.dumps({"type": "result", "best_move": res.best_move + 1,
                              "score": res.score, "band": res.band, "pv": pv,
                              "nodes": res.nodes, "depth": res.depth, "reason": res.reason,
                              "value": res.value}), flush=True)
        else:
            from c4tui.engine.scores import describe

            sc = describe(res.score, pos.ply) if res.band != "heuristic" else \
                f"{res.score:+d} (heuristic)"
            typer.echo(f"best move {'abcdefg'[res.best_move]} (column {res.best_move + 1}), "
                       f"{sc}, band {res.band}, depth {res.depth}, {res.nodes:,} nodes, "
                       f"stopped by {res.reason}")
            typer.echo(f"principal variation: {''.join(map(str, pv))}")

    @app.command("selfplay")
    def selfplay(
        a: str = typer.Option("", "--a", help="option set A: switches, e.g. 'no-quiescence'"),
        b: str = typer.Option("no-quiescence", "--b", help="option set B"),
        nodes: int = typer.Option(100_000, "--nodes", help="node budget per move, both sides"),
        openings: int = typer.Option(49, "--openings", help="use the first N of the 49"),
        hash_mb: float = typer.Option(16, "--hash-mb"),
    ) -> None:
        """MILTON's self-play test: the 49 two-ply openings, twice each with colours swapped.

        Prints A's wins:losses:draws against B. Switches: pvs, mtdf, aspiration,
        quiescence, extensions, killers, recognition, book, threat-ordering (prefix no- to
        turn off).
        """
        from c4tui.engine.analysis_bench import openings as all_openings
        from c4tui.engine.analysis_bench import selfplay as run

        if nodes < 1:
            _fail(f"selfplay: --nodes {nodes}: expected a positive count")
        if not 1 <= openings <= 49:
            _fail(f"selfplay: --openings {openings}: expected 1-49")
        try:
            oa = parse_option_set(a, nodes, hash_mb)
            ob = parse_option_set(b, nodes, hash_mb)
        except ValueError as e:
            _fail(f"selfplay: {e}")
        starts = all_openings()[:openings]
        t0 = time.perf_counter()
        games = 2 * len(starts)

        def prog(w: int, lo: int, d: int, _x: int) -> None:
            print(f"\r{w + lo + d}/{games} games  A {w}:{lo}:{d}", end="", file=sys.stderr,
                  flush=True)

        try:
            w, lo, d = run(oa, ob, starts, prog)
        except KeyboardInterrupt:
            _fail("selfplay: interrupted")
        print(file=sys.stderr)
        typer.echo(f"A [{a or 'defaults'}] vs B [{b or 'defaults'}], {nodes:,} nodes per move, "
                   f"{games} games: {w}:{lo}:{d} (A wins:losses:draws) "
                   f"in {time.perf_counter() - t0:.0f} s")
