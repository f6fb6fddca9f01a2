"""How ``--help`` shows the commands: one place for every command of the CLI.

Typer's rich help keeps a docstring's hard line breaks and wraps each line again at the
terminal's width, so paragraphs came out ragged; it shows ``<bool>`` in the type column of
every switch, which takes no value. :func:`tidy_help` makes every command and group of an
app reflow its paragraphs and leave a switch's type column empty.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

#: A line that starts a list item or is indented: kept on its own line when reflowing.
_KEEP_LINE = re.compile(r"\s|[-*•]\s|\d+[.)]\s")


def reflow(text: str | None) -> str | None:
    """``text`` (a docstring) with each paragraph's lines joined into one line, so that
    the help wraps it once, at the terminal's width; list items keep their own lines."""
    if not text:
        return text
    paragraphs = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in para.splitlines():
            if lines and not _KEEP_LINE.match(line):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.rstrip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _tidy(command: Any) -> None:
    command.help = reflow(command.help)
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # a switch takes no value: no <bool> in its type column


def _quiet_switch(option: Any) -> Any:
    if option is not None and option.metavar is None:
        option.metavar = ""
    return option


class TidyCommand(TyperCommand):
    """A command whose help reads as written (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _tidy(self)

    def get_help_option(self, ctx: Any) -> Any:
        """``--help``, a switch too (made when the help is asked for, not in ``params``)."""
        return _quiet_switch(super().get_help_option(ctx))


class TidyGroup(TyperGroup):
    """A command group whose help reads as written (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _tidy(self)

    def get_help_option(self, ctx: Any) -> Any:
        """``--help``, a switch too (made when the help is asked for, not in ``params``)."""
        return _quiet_switch(super().get_help_option(ctx))


def tidy_help(app: typer.Typer) -> None:
    """Make every command and group of ``app`` (its subgroups too) tidy its help."""
    if not isinstance(app.info.cls, type):  # not given: Typer's default
        app.info.cls = TidyGroup
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):  # Typer's default
            info.cls = TidyCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            tidy_help(group.typer_instance)
