"""``c4tui open``: the analysis workstation (also what bare ``c4tui`` runs)."""

from __future__ import annotations

from pathlib import Path

import typer


def resolve_target(args: list[str]) -> tuple[object, dict[str, str]]:
    """The Position to open from the command-line words: a file or a move sequence.

    Raises ``ValueError`` with a one-line message.
    """
    from c4tui import gamefile
    from c4tui.engine.position import IllegalMoveError, Position

    if not args:
        return Position(), {}
    if len(args) == 1:
        path = Path(args[0]).expanduser()
        if path.is_file():
            game = gamefile.load_game(path)
            return game.position, game.headers
    text = " ".join(args)
    try:
        return Position.parse(text), {}
    except IllegalMoveError as exc:
        if len(args) == 1 and any(ch in text for ch in "./\\~") or text.endswith(
            gamefile.GAME_SUFFIX
        ):
            raise ValueError(f"{text}: no such file") from None
        raise ValueError(f"{text!r} is neither a file nor a move sequence: {exc}") from None


def register(app: typer.Typer) -> None:
    """Add the ``open`` command to the CLI."""

    @app.command("open")
    def open_cmd(
        target: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
            None, help="A game file, or moves: 4453 or d1 d2 e1 c1.", show_default=False
        ),
        auto: bool = typer.Option(
            True, "--auto/--no-auto", help="Start a search on every new position."
        ),
        node_limit: str = typer.Option(
            "2M", "--node-limit", help="Search node limit (e.g. 500k, 2M, 1G)."
        ),
        hash_mb: str = typer.Option("16", "--hash", help="Search hash size in MB (1-4096)."),
        engine: bool = typer.Option(
            True, "--engine/--no-engine", help="Load the engine (off: a plain board)."
        ),
    ) -> None:
        """Open the analysis workstation on a position, a move sequence or a game file."""
        from c4tui.app.analysis import parse_count
        from c4tui.engine.position import IllegalMoveError
        from c4tui.gamefile import GameFileError

        try:
            limit = parse_count(node_limit, "--node-limit", 1, 10**12)
            hash_size = parse_count(hash_mb, "--hash", 1, 4096)
            pos, headers = resolve_target(list(target or []))
        except (GameFileError, IllegalMoveError, ValueError) as exc:
            typer.echo(f"c4tui: {exc}", err=True)
            raise typer.Exit(2) from None

        from c4tui.app import C4App
        from c4tui.app.engine_bridge import SearchSettings

        settings = SearchSettings(auto=auto, node_limit=limit, hash_mb=hash_size)
        C4App(pos, settings=settings, engine=engine, headers=headers).run()
