"""``c4tui selfplay``: MILTON's self-play test between two option sets of the search."""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from . import options
from .errors import fail
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.engine.board.position import Position
    from c4tui.engine.seam import SearchOptions

DEFAULT_NODES = "100k"  # per move: MILTON's experiments, and a run of minutes


def switch_names() -> tuple[str, ...]:
    """The on/off switches of the search (its bool options), as the CLI spells them."""
    from c4tui.engine.seam import SearchOptions

    names = (f.name for f in dataclasses.fields(SearchOptions) if f.type in ("bool", bool))
    return tuple("book" if n == "use_book" else n.replace("_", "-") for n in names)


def parse_option_set(text: str, hash_mb: int | None = None) -> SearchOptions:
    """``"no-quiescence,killers"`` -> SearchOptions (switches as ``c4tui analyze`` spells
    them, ``no-`` turns one off); other options keep the search's defaults."""
    from c4tui.engine.seam import SearchOptions

    known = switch_names()
    changes: dict[str, bool] = {}
    for raw in text.replace(" ", "").split(","):
        if not raw:
            continue
        on = not raw.startswith("no-")
        name = (raw if on else raw[3:]).replace("_", "-")
        if name not in known:
            raise ValueError(f"option set {text!r}: unknown switch {raw!r} "
                             f"(known: {', '.join(known)})")
        changes["use_book" if name == "book" else name.replace("-", "_")] = on
    opts = SearchOptions(**changes)
    return opts if hash_mb is None else dataclasses.replace(opts, hash_mb=hash_mb)


def selfplay(
    candidate: Annotated[
        str, typer.Option("--candidate", metavar="SWITCHES",
                          help="The option set under test, e.g. 'no-quiescence,killers' "
                          "(empty: the defaults).")
    ] = "",
    baseline: Annotated[
        str, typer.Option("--baseline", metavar="SWITCHES",
                          help="The option set it plays against.")
    ] = "no-quiescence",
    nodes: Annotated[
        str, options.nodes_option("Node limit per move, both sides", DEFAULT_NODES)
    ] = DEFAULT_NODES,
    openings: Annotated[
        int | None, typer.Option("--openings", help="Play the first N of the two-ply "
                                 "openings (default: all, width x width: 49 on 7x6).")
    ] = None,
    hash_text: Annotated[
        str | None, options.hash_option("Tables of each side's search", "the search's")
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", metavar="FILE",
                                 help="Store the games in this games database ('default': "
                                 "the user data directory's; see c4tui db).")
    ] = None,
    size: SIZE_OPTION = None,
) -> None:
    """MILTON's self-play test: the two-ply openings, twice each with colours swapped.

    Prints the candidate's wins:losses:draws against the baseline. Switches: pvs, mtdf,
    aspiration, quiescence, extensions, killers, recognition, book, threat-ordering,
    window-parity (prefix no- to turn one off).
    """
    from c4tui.engine.seam import Limits

    from .bench.analysis import openings as all_openings
    from .bench.analysis import selfplay as run

    check_size(size, "selfplay")
    limit = options.node_limit(nodes, None)
    hash_mb = options.hash_mb(hash_text)
    # every pair of first moves: width x width of them, on any board size
    every = all_openings()
    if openings is not None and not 1 <= openings <= len(every):
        fail(f"selfplay: --openings {openings}: expected 1 to {len(every)}")
    try:
        test_opts = parse_option_set(candidate, hash_mb)
        base_opts = parse_option_set(baseline, hash_mb)
    except ValueError as e:
        fail(f"selfplay: {e}")
    starts = every[:openings]
    t0 = time.perf_counter()
    games = 2 * len(starts)

    def progress(w: int, lo: int, d: int, _x: int) -> None:
        print(f"\r{w + lo + d}/{games} games  candidate {w}:{lo}:{d}", end="",
              file=sys.stderr, flush=True)

    books = None
    if test_opts.use_book or base_opts.use_book:
        from rich.console import Console

        from .load_books import prepare_books

        books = prepare_books(Console(stderr=True))
    on_game = None
    if db is not None:
        from .db import game_store

        store = game_store(db, "c4tui selfplay")
        names = (f"candidate [{candidate or 'defaults'}]", f"baseline [{baseline or 'defaults'}]")

        def on_game(pos: Position, candidate_white: bool) -> None:
            store(pos, *(names if candidate_white else names[::-1]))
    try:
        w, lo, d = run(Limits(nodes=limit), test_opts, base_opts, starts, progress, books,
                       on_game)
    except KeyboardInterrupt:
        fail("selfplay: interrupted", 130)
    print(file=sys.stderr)
    per_move = "unlimited" if limit is None else f"{limit:,}"
    typer.echo(f"candidate [{candidate or 'defaults'}] vs baseline [{baseline or 'defaults'}], "
               f"{per_move} nodes per move, {games} games: {w}:{lo}:{d} (candidate's "
               f"wins:losses:draws) in {time.perf_counter() - t0:.0f} s")


def register(app: typer.Typer) -> None:
    """Add ``selfplay`` to the CLI."""
    app.command("selfplay")(selfplay)
