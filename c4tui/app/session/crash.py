"""Crash reports: when the app dies of an exception, its traceback goes to a file.

The terminal gets one line (``c4tui: crashed: <reason>; the traceback is in <path>``,
printed by ``c4tui open`` after the terminal is restored) and the process exits 1; the
file, in the user state directory (``$XDG_STATE_HOME/c4tui/crashes``, by default
``~/.local/state/c4tui/crashes`` on Linux), holds the whole traceback, the versions, the
command line and the game, for a bug report. Only the newest :data:`KEEP` are kept.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from c4tui.atomicfile import atomic_write
from c4tui.bounded import shown

#: Crash reports kept (the oldest are removed when a new one is written).
KEEP = 20
_REASON_WIDTH = 160


def crash_dir() -> Path:
    """Where crash reports go: ``crashes`` in the user state directory."""
    return Path(platformdirs.user_state_dir("c4tui")) / "crashes"


@dataclass(frozen=True)
class CrashReport:
    """A crash: its one-line reason, and the file with the traceback (None: it could not
    be written; ``problem`` says why)."""

    reason: str
    path: Path | None
    problem: str = ""

    def line(self) -> str:
        """The one line the terminal gets."""
        if self.path is not None:
            return f"c4tui: crashed: {self.reason}; the traceback is in {self.path}"
        return f"c4tui: crashed: {self.reason}; the traceback could not be saved " \
               f"({self.problem}): it is above"


def one_line_reason(error: BaseException) -> str:
    """``KeyError: 0``: the exception's type and the first line of its message, printable
    and short."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    reason = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return shown(reason, _REASON_WIDTH)  # the one rule for text that is not ours


def report_text(error: BaseException, context: dict[str, str]) -> str:
    """The crash file's text: what ran, the ``context`` lines (the game...), the
    traceback."""
    from c4tui import __version__

    try:
        from importlib.metadata import version

        textual = version("textual")
    except Exception:  # noqa: BLE001 - a report must not fail for want of a version
        textual = "?"
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = [
        f"c4tui crashed at {now}",
        f"reason: {one_line_reason(error)}",
        f"c4tui {__version__}, Python {platform.python_version()}, Textual {textual}, "
        f"{platform.platform()}",
        f"command: {' '.join(sys.argv)}",
        f"process: {os.getpid()}",
        *(f"{key}: {value}" for key, value in context.items()),
        "",
    ]
    return "\n".join(lines) + traceback_text(error)


def traceback_text(error: BaseException) -> str:
    """``error``'s traceback as Python prints it; for an exception that carries another it
    was made from without raising it (Textual's ``WorkerFailed``, which the app gets with
    no frames and no ``__cause__``: its ``error`` is the worker's exception), the carried
    exception's traceback first, as Python prints a cause."""
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    inner = getattr(error, "error", None)
    if (isinstance(inner, BaseException) and inner is not error
            and error.__cause__ is None and error.__context__ is None):
        cause = "".join(traceback.format_exception(type(inner), inner, inner.__traceback__))
        trace = (f"{cause}\nThe above exception was the direct cause of the following "
                 f"exception:\n\n{trace}")
    return trace


def write_crash_report(error: BaseException, context: dict[str, str] | None = None,
                       directory: Path | None = None) -> CrashReport:
    """Write the report of ``error`` to a new file in ``directory`` (default:
    :func:`crash_dir`); never raises (a report that cannot be written says why)."""
    reason = one_line_reason(error)
    directory = directory or crash_dir()
    try:
        text = report_text(error, dict(context or {}))
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"crash-{stamp}-{os.getpid()}.txt"
        atomic_write(path, text.encode("utf-8", "replace"), overwrite=True)
    except Exception as exc:  # noqa: BLE001 - the crash is the news, not this
        return CrashReport(reason, None, one_line_reason(exc))
    _prune(directory)
    return CrashReport(reason, path)


def _prune(directory: Path) -> None:
    """Keep the newest :data:`KEEP` reports."""
    try:
        reports = sorted(directory.glob("crash-*.txt"), key=lambda p: p.stat().st_mtime)
        for old in reports[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
