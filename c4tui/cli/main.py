"""The ``c4tui`` command line.

``c4tui`` with no arguments, a move string or a file opens the workstation; the named
commands (``solve``, ``analyze``, ``bench``, ``book`` ...) are tools for scripts. Each
command lives in its own module and registers itself on the shared Typer app.
"""

from __future__ import annotations

import sys

import typer

from . import analyze, bench, book, solve
from . import open as open_cmd

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="Connect Four analysis workstation. Run without a command to open the app.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

for _module in (open_cmd, solve, analyze, bench, book):
    _module.register(app)


def _command_names() -> set[str]:
    names = {c.name or c.callback.__name__ for c in app.registered_commands}
    names |= {g.name for g in app.registered_groups if g.name}
    return names


def main(argv: list[str] | None = None) -> None:
    """Entry point: dispatch to a command, or open the app (the ``open`` command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0] not in _command_names() and args[0] not in ("-h", "--help")):
        args = ["open", *args]
    app(args=args, prog_name="c4tui")


if __name__ == "__main__":  # pragma: no cover
    main()
