"""The ``c4tui`` command line: the Typer app, its commands, and the entry point.

``c4tui`` with no arguments, a move string or a file opens the workstation (the ``open``
command); the named commands are tools for scripts. Each command lives in its own module
of this package and adds itself to the app with ``register(app)``. Only the command that
runs is imported (``c4tui solve`` starts without the app, the match runner, Dask or the
analysis kernels); ``--help`` and :data:`app` have them all.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Annotated, Any

import typer

from c4tui import __version__
from c4tui.engine.seam import default_threads

from .errors import FAILURE, fail
from .helptext import tidy_help
from .size import apply_size_argument

# One module per command, named as the command, in the order of `c4tui --help`, each with
# `register(app)` (tests/test_warmup.py checks that each registers its name).
COMMANDS = ("open", "games", "db", "solve", "analyze", "explain", "review", "render",
            "puzzles", "selfplay", "match", "bench", "book", "engine", "serve")


def build_app(names: tuple[str, ...] = COMMANDS) -> typer.Typer:
    """The Typer app with the commands ``names`` (their modules imported now)."""
    cli = typer.Typer(
        add_completion=False,
        no_args_is_help=False,
        help="Connect Four analysis workstation. Run without a command to open the app.",
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    for name in names:
        importlib.import_module(f"{__package__}.{name}").register(cli)
    cli.callback()(_options)
    tidy_help(cli)  # after every command is registered: all of them reflow their help
    return cli


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"c4tui {__version__}")
        raise typer.Exit()


def _options(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_print_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """Connect Four analysis workstation. Run without a command to open the app."""


_FULL: list[typer.Typer] = []


def __getattr__(name: str) -> Any:
    """``app``: the app with every command, built on first use (tests, ``--help``)."""
    if name == "app":
        if not _FULL:
            _FULL.append(build_app())
        return _FULL[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """Entry point: dispatch to a command, or open the app (the ``open`` command)."""
    args = apply_size_argument(list(sys.argv[1:] if argv is None else argv))
    columns = os.environ.get("COLUMNS", "").strip()
    if columns and not (columns.isdigit() and int(columns) > 0):
        del os.environ["COLUMNS"]  # COLUMNS=0: rich printed the help 0 columns wide (empty)
    try:
        default_threads()  # a bad C4TUI_THREADS is refused once, before any command runs
    except ValueError as exc:
        fail(str(exc))
    if not args or (args[0] not in COMMANDS
                    and args[0] not in ("-h", "--help", "-V", "--version")):
        args = ["open", *args]
    # the one command that runs (its own --help included), or all of them for c4tui --help
    cli = build_app((args[0],)) if args[0] in COMMANDS else __getattr__("app")
    try:
        code = cli(args=args, prog_name="c4tui", standalone_mode=False)
    except typer.Abort:  # Ctrl-C or end of input at a prompt of the parser's
        fail("aborted", FAILURE)
    except typer.TyperException as exc:
        # The parser's own errors (an unknown option, a value of the wrong type) in the
        # one-line form of every other error, not Typer's boxed panel under a usage line.
        code = getattr(exc, "exit_code", 2)
        bad = _bad_value(exc, args)
        if bad is not None:  # as every other bad value says it (cli/errors.py)
            fail(bad, code)
        fmt = getattr(exc, "format_message", None)
        message = (fmt() if fmt is not None else str(exc)).rstrip(".")
        if not message:  # a group run without its command: the parser printed its help
            sys.exit(code)
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            message += f" (see '{ctx.command_path} -h')"
        fail(message, code)
    sys.exit(code if isinstance(code, int) else 0)


def _bad_value(exc: Exception, args: list[str]) -> str | None:
    """A value of the wrong type for an option (``--threads x``) in the form of every bad
    value, ``--threads 'x': not a valid integer`` (cli/errors.py), not the parser's
    ``Invalid value for '--threads' / '-t': Input should be ...``; None for the parser's
    other errors. The parser's message does not quote the value: it is found in ``args``."""
    opts = getattr(getattr(exc, "param", None), "opts", None)
    reason = re.fullmatch(r"Input should be (.+?)(?:, unable to .*)?\.?",
                          str(getattr(exc, "message", "")).strip())
    if not opts or reason is None:
        return None
    value = None
    for i, word in enumerate(args):
        name, eq, attached = word.partition("=")
        if name in opts:
            value = attached if eq else (args[i + 1] if i + 1 < len(args) else None)
    if value is None:
        return None
    return f"{max(opts, key=len)} {value!r}: not {reason[1]}"  # --threads rather than -t

