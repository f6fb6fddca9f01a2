"""``c4tui open``: the analysis workstation (also what bare ``c4tui`` runs)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c4tui.bounded import shown
from c4tui.review.game import INACCURACY_MOVES
from c4tui.units import PERFECT, Strength

from . import options
from .errors import FAILURE, fail
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.app import C4App
    from c4tui.gamefile import Game


def resolve_target(args: list[str]) -> Game:
    """The game to open from the command-line words (a game file's variations, comments
    and headers included).

    One word that names something on disk (a file, a directory, ...) is a game file;
    anything else is a move sequence. Raises ``ValueError`` with a one-line message.
    """
    from c4tui import gamefile
    from c4tui.engine.board.position import IllegalMoveError, Position, is_link

    if not "".join(args).strip():  # "" is the empty board, not the current directory
        return gamefile.Game(Position())
    if len(args) == 1:
        path = Path(args[0]).expanduser()
        if path.exists():  # load_game says what is wrong with a directory or a bad file
            return gamefile.load_game(path)
    text = " ".join(args)
    try:
        return gamefile.Game(Position.parse(text))
    except IllegalMoveError as exc:
        if is_link(text.strip()):  # not a file name: the link's own error names it
            raise ValueError(str(exc)) from None
        if len(args) == 1 and any(ch in text for ch in "./\\~") or text.endswith(
            gamefile.GAME_SUFFIX
        ):
            raise ValueError(f"{text}: no such file") from None
        raise ValueError(f"{text!r} is neither a file nor a move sequence: {exc}") from None


def open_workstation(
    target: Annotated[
        list[str] | None,
        typer.Argument(help="A game file, or moves: 4453, d1 d2 e1 c1, 0:3342 (0-based) or "
                       "a connect4.gamesolver.org link (?pos=4453).", show_default=False),
    ] = None,
    auto: Annotated[
        bool, typer.Option("--auto/--no-auto", help="Start a search on every new position.")
    ] = True,
    book: Annotated[
        bool, typer.Option("--book/--no-book", help="Let the analysis search use the opening "
                           "books (--no-book: watch it search the opening; the exact values "
                           "keep them; key B toggles).")
    ] = True,
    nodes: Annotated[
        str | None,
        options.nodes_option("Node limit of each search",
                             "the workstation's; an external engine's: none"),
    ] = None,
    hash_text: Annotated[
        str | None, options.hash_option("Tables of the search", "the workstation's")
    ] = None,
    engine_cmd: Annotated[
        str | None,
        typer.Option("--engine", metavar="COMMAND", show_default=False,
                     help="Analyse with this UGI engine instead of the built-in search "
                     "(e.g. \"c4tui engine\"; the exact values stay c4tui's)."),
    ] = None,
    no_engine: Annotated[
        bool, typer.Option("--no-engine", help="Do not load the engine: a plain board.")
    ] = False,
    play: Annotated[
        str | None,
        typer.Option("--play", metavar="SIDE", show_default=False,
                     help="Play against the engine, which plays this side (white or "
                     "black; it moves first if it is to move)."),
    ] = None,
    strength: Annotated[
        str, typer.Option("--strength", metavar="S",
                          help=f"The engine's strength with --play ({options.STRENGTH_HELP}).")
    ] = PERFECT,
    vary: Annotated[
        bool, typer.Option("--vary", help="With --play perfect: pick at random among equally "
                           "good moves, so that games vary.")
    ] = False,
    hints: Annotated[
        bool, typer.Option("--hints", help="With --play: show the hints (move values, "
                           "verdicts, graph, log) from the start; h toggles them.")
    ] = False,
    inaccuracy: options.INACCURACY = INACCURACY_MOVES,
    size: SIZE_OPTION = None,
) -> None:
    """Open the analysis workstation on a position, a move sequence or a game file."""
    check_size(size, "open")
    options.check_inaccuracy(inaccuracy)
    count = None if nodes is None else options.node_count(nodes)
    hash_mb = options.hash_mb(hash_text)
    argv = external_command(engine_cmd)
    if argv and no_engine:
        fail("--engine and --no-engine: choose one")
    engine_side = None if play is None else options.side(play)
    chosen = options.strength(strength)
    if engine_side is None and (chosen != Strength() or vary or hints):
        fail("--strength, --vary and --hints need --play white or --play black")
    if engine_side is not None and no_engine:
        fail("--play and --no-engine: there is no engine to play against")
    try:
        game = resolve_target(list(target or []))
    except ValueError as exc:  # GameFileError and IllegalMoveError are ValueErrors
        fail(str(exc))

    from c4tui import recent
    from c4tui.app import C4App
    from c4tui.app.bridge.engine_bridge import SearchSettings
    from c4tui.app.bridge.player import PlaySettings
    from c4tui.app.session.autosave import Autosave, find_orphan
    from c4tui.engine.seam import Limits, SearchOptions

    # not given: None, the workstation's defaults (app/bridge/settings.py); 0: no node limit
    limits = None if count is None else Limits(nodes=count or None)
    search = SearchOptions(use_book=book) if hash_mb is None else \
        SearchOptions(use_book=book, hash_mb=hash_mb)
    settings = SearchSettings(auto=auto, limits=limits, options=search, engine_cmd=argv)
    opponent = None if engine_side is None else PlaySettings(engine_side, chosen, vary)
    # a session that did not quit cleanly is offered first (claimed: no other start sees it);
    # a session served to a browser (c4tui serve) is a visitor's: neither kept nor offered
    served = "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")
    orphan = None if served else find_orphan(
        warn=lambda text: print(f"c4tui: {text}", file=sys.stderr))
    app = C4App(game.position, settings=settings, engine=not no_engine, headers=game.headers,
                tree=game.tree, play=opponent, hints=opponent is None or hints,
                autosave=None if served else Autosave(), restore=orphan,
                inaccuracy=inaccuracy)
    opened = _opened_file(list(target or []))
    if opened is not None:  # a game file: the picker starts beside it, and it is recent
        app.files.current_file = opened
        warning = recent.add_recent(opened).warning
        if warning:
            print(f"c4tui: {warning}", file=sys.stderr, flush=True)
    run_app(app)


def run_app(app: C4App) -> None:
    """Run the workstation; the process's exit status is the app's (0 after ``q``, 129
    when the terminal went away). A crash exits 1 with one line naming the crash report
    (written by the app, with the session autosaved), instead of a traceback."""
    try:
        app.run()
    except Exception as exc:  # outside any handler (the driver, the event loop)
        if app.session.record_crash(exc).path is None:
            traceback.print_exception(exc)
    if app.session.crash is not None:
        print(app.session.crash.line(), file=sys.stderr, flush=True)
        raise typer.Exit(FAILURE)
    if app.return_code:
        raise typer.Exit(app.return_code)


def _opened_file(args: list[str]) -> Path | None:
    """The game file that :func:`resolve_target` loaded from these words, if any."""
    if len(args) != 1:
        return None
    path = Path(args[0]).expanduser()
    return path.absolute() if path.is_file() else None


def external_command(text: str | None) -> tuple[str, ...]:
    """``--engine``'s command as an argument list (split like a shell, run without one)."""
    if text is None:
        return ()
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:  # an unclosed quote
        fail(f"--engine '{shown(text)}': {exc}")  # escaped, cut: it may be anything
    if not argv:
        fail("--engine: the command is empty")
    if shutil.which(argv[0]) is None:  # said here, not later in the status line
        fail(f"--engine: '{shown(argv[0])}' is not a command that can be run")
    return argv


def register(app: typer.Typer) -> None:
    """Add ``open`` to the CLI."""
    app.command("open")(open_workstation)
