"""``c4tui match``: two UGI engines play a match (c4tui/match/; docs/user-guide.md)."""

from __future__ import annotations

import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from c4tui.bounded import shown
from c4tui.engine.seam import Limits
from c4tui.match.adjudicator import DEFAULT_EMPTY, MAX_EMPTY
from c4tui.match.game import GameRecord
from c4tui.match.player import DEFAULT_TIMEOUT
from c4tui.match.runner import MAX_CONCURRENCY, MatchConfig, MatchState
from c4tui.units import UnitError, parse_count, plural

from . import options
from .errors import FAILURE, bad_value, fail
from .size import SIZE_OPTION, check_size

DEFAULT_NODES = 20_000  # per move, when neither --nodes nor --movetime is given
MAX_MOVETIME_MS = 3_600_000
ENGINE_HELP = ("A UGI engine's command line, split as a shell would (no shell runs it); "
               "left out or '': c4tui's own engine.")


def _engine(text: str | None, name: str) -> tuple[str, ...] | None:
    """The argument list of an engine (None: our own), or a one-line usage error."""
    if text is None:
        return None
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        bad_value(name, f"'{shown(text)}'", str(exc).lower())
    return tuple(argv) or None


def _pair(text: str | None, option: str,
          count: Callable[[str], int]) -> tuple[int | None, int | None]:
    """``N`` (both engines) or ``A/B`` (each its own) as two counts, each read by
    ``count``."""
    if text is None:
        return None, None
    parts = text.split("/")
    if len(parts) > 2:
        bad_value(option, repr(text), "expected N, or A/B (engine A's, then B's)")
    try:
        values = [count(p) for p in parts]
    except UnitError as exc:
        bad_value(option, exc.value, exc.reason)
    return values[0], values[-1]


def _limits(nodes: int | None, movetime_ms: int | None) -> Limits:
    """One engine's bounds per move: ``--nodes`` (0: none) and ``--movetime``."""
    return Limits(nodes=nodes or None,
                  time=None if movetime_ms is None else movetime_ms / 1000)


def _options(pairs: list[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in pairs:
        name, eq, value = text.partition("=")
        if not eq or not name.strip():
            bad_value(option, repr(text), "expected NAME=VALUE (a UGI option)")
        out[name.strip()] = value.strip()
    return out


def match(
    engine_a: Annotated[str | None, typer.Argument(metavar="ENGINE_A", help=ENGINE_HELP,
                                                   show_default=False)] = None,
    engine_b: Annotated[str | None, typer.Argument(metavar="ENGINE_B", help=ENGINE_HELP,
                                                   show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", help="Games to play (the most, with "
                                       "--sprt).")] = 100,
    concurrency: Annotated[int, typer.Option(
        "--concurrency", help="Games played at once (each a pair of engine processes; "
        f"1-{MAX_CONCURRENCY}).")] = 1,
    openings: Annotated[Path | None, typer.Option(
        "--openings", metavar="FILE", show_default=False,
        help="Openings, one move string per line (default: drawn positions of our "
        "book).")] = None,
    opening_plies: Annotated[int, typer.Option(
        "--opening-plies", help="Discs of the book's openings (1-8).")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Shuffles the book's openings.")] = 0,
    nodes: Annotated[str | None, options.nodes_option(
        "Nodes per move, both engines or A's/B's: 20k/5k",
        f"{DEFAULT_NODES:,} unless --movetime", metavar="N|A/B")] = None,
    movetime: Annotated[str | None, typer.Option(
        "--movetime", metavar="MS|A/B", show_default=False,
        help="Milliseconds per move, both engines or A's/B's.")] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", metavar="SECONDS",
        help="How long a move may take beyond --movetime before the engine loses on "
        "time.")] = DEFAULT_TIMEOUT,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="NAME=VALUE", show_default=False,
        help="A UGI option for both engines (repeatable).")] = None,
    option_a: Annotated[list[str] | None, typer.Option(
        "--option-a", metavar="NAME=VALUE", show_default=False,
        help="A UGI option for engine A only.")] = None,
    option_b: Annotated[list[str] | None, typer.Option(
        "--option-b", metavar="NAME=VALUE", show_default=False,
        help="A UGI option for engine B only.")] = None,
    adjudicate: Annotated[int, typer.Option(
        "--adjudicate", metavar="EMPTY",
        help="End a game with its exact result once at most EMPTY squares are empty "
        f"(0: never; at most {MAX_EMPTY}).")] = DEFAULT_EMPTY,
    sprt: Annotated[tuple[float, float] | None, typer.Option(
        "--sprt", metavar="ELO0 ELO1", show_default=False,
        help="Stop once an SPRT on game pairs accepts H0 (Elo A-B = ELO0) or H1 (= ELO1)."
    )] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="SPRT: false H1 rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="SPRT: false H0 rate.")] = 0.05,
    records: Annotated[Path | None, typer.Option(
        "--records", metavar="DIR", show_default=False,
        help="Write every game to DIR/0001.c4g, DIR/0002.c4g ... (a new or empty "
        "directory).")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="FILE", show_default=False,
        help="Store every game in this games database ('default': the user data "
        "directory's; see c4tui db).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="JSON lines: one per game, then "
                                           "the summary.")] = False,
    size: SIZE_OPTION = None,
) -> None:
    """Play a match between two UGI engines: W/D/L, Elo with a 95% interval, an SPRT.

    Each opening is played twice, colours reversed. On a terminal the table refreshes in
    place; otherwise a line per game. Engines that crash, time out or play an illegal
    move lose the game.
    """
    from c4tui.gamefile import GameFileError
    from c4tui.match.adjudicator import Adjudicator
    from c4tui.match.openings import OpeningsError, book_openings, read_openings
    from c4tui.match.player import OWN_ENGINE, EngineSpec
    from c4tui.match.records import check_directory
    from c4tui.match.sprt import Sprt

    check_size(size, "match")
    argv_a, argv_b = _engine(engine_a, "ENGINE_A"), _engine(engine_b, "ENGINE_B")
    nodes_a, nodes_b = _pair(nodes, "--nodes", options.node_count)
    ms_a, ms_b = _pair(movetime, "--movetime",
                       lambda t: parse_count(t, "--movetime", 1, MAX_MOVETIME_MS))
    if nodes is None and movetime is None:
        nodes_a = nodes_b = DEFAULT_NODES
    if not 0 < timeout <= 3600:
        bad_value("--timeout", timeout, "out of range (more than 0, at most 3600 s)")
    both = _options(option or [], "--option")
    try:
        test = Sprt(sprt[0], sprt[1], alpha, beta) if sprt is not None else None
        Adjudicator(adjudicate)  # checks the range
        opening_list = (read_openings(openings) if openings is not None
                        else book_openings(opening_plies, seed))
        if records is not None:
            check_directory(records)
        specs = (
            EngineSpec(argv_a or OWN_ENGINE, {**both, **_options(option_a or [], "--option-a")},
                       _limits(nodes_a, ms_a), timeout),
            EngineSpec(argv_b or OWN_ENGINE, {**both, **_options(option_b or [], "--option-b")},
                       _limits(nodes_b, ms_b), timeout),
        )
        config = MatchConfig(specs, opening_list, games, concurrency, adjudicate, test,
                             records)
    except (ValueError, OpeningsError, GameFileError) as exc:
        text = str(exc)  # an option's own error is in the one form: --option VALUE: reason
        fail(text if text.startswith("--") else f"match: {text}")
    where = f"from {openings}" if openings is not None else \
        f"(the book's {opening_plies}-disc positions that are draws with perfect play)"
    _play(config, "json" if json_out else ("live" if sys.stdout.isatty() else "plain"), where,
          db)


class _Ended(Exception):
    """SIGTERM or SIGHUP: the match ends as after Ctrl-C, its engines (and whatever they
    started) killed, instead of dying and leaving them running."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_ending_signals(handler: object) -> None:
    """Route SIGTERM and SIGHUP to ``handler`` (the main thread only can)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, handler)  # type: ignore[arg-type]


def _raise_ended(signum: int, _frame: object) -> None:
    _on_ending_signals(signal.SIG_IGN)  # once: the cleanup must not be cut short
    raise _Ended(signum)


def _play(config: MatchConfig, mode: str, where: str, db: str | None = None) -> None:
    """Start the engines, play, print (and store each game in the games database ``db``);
    one line and exit status 2 (an engine does not start), 1 (the match failed), 130
    (Ctrl-C) or 128 + N (signal N: SIGTERM, SIGHUP; the engines are killed all the same)."""
    from c4tui.match.runner import Match, MatchError
    from c4tui.match.table import Output

    from .db import game_store

    output: list[Output] = []
    store = game_store(db, "c4tui match") if db is not None else None

    def game(rec: GameRecord, state: MatchState) -> None:
        output[0].game(rec, state)
        if store is not None:
            black = "B" if rec.white == "A" else "A"
            store(rec.position(), f"{the_match.names[rec.white]} ({rec.white})",
                  f"{the_match.names[black]} ({black})", rec.number, rec.result,
                  {"Termination": rec.termination})

    the_match = Match(config, game)
    t0 = time.monotonic()
    _on_ending_signals(_raise_ended)
    try:  # one block: Ctrl-C may come between any two steps
        the_match.start()
        output.append(Output(mode, the_match.names, config.sprt))
        output[0].begin(_heading(config, the_match.names, where))
        state = the_match.run()
    except MatchError as exc:
        if not output:  # an engine did not start: the command line's fault
            fail(f"match: {exc}")
        output[0].finish(the_match.state, time.monotonic() - t0, "failed")
        fail(f"match: {exc}", FAILURE)
    except (KeyboardInterrupt, _Ended) as exc:
        the_match.close()
        code, why = (128 + exc.signum, f"ended by {signal.Signals(exc.signum).name}") \
            if isinstance(exc, _Ended) else (130, "interrupted")
        if not output:
            fail(f"match: {why}", code)
        try:
            output[0].finish(the_match.state, time.monotonic() - t0, why)
        except OSError:  # the terminal is gone (SIGHUP): nothing to print to
            pass
        raise typer.Exit(code) from None
    output[0].finish(state, time.monotonic() - t0)


def _heading(config: MatchConfig, names: dict[str, str], where: str) -> str:
    """``A: c4tui 0.1.0 (20,000 nodes per move)  vs  B: ...`` and what the match plays."""
    a, b = config.engines
    lines = [f"A: {names['A']} ({a.limits_text()})  vs  B: {names['B']} ({b.limits_text()})",
             f"{plural(config.games, 'game')}, {plural(len(config.openings), 'opening')} "
             f"{where}, "
             f"{config.concurrency} at once, adjudication "
             + (f"at {config.adjudicate} empty squares" if config.adjudicate else "off")
             + (f", records in {config.records}/" if config.records else "")]
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Add ``match`` to the CLI."""
    app.command("match")(match)
