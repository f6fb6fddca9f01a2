"""Loading the books for a command, with a progress bar while the 12-ply database is
converted (its first use on this machine: a few seconds, then cached)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TimeElapsedColumn


def prepare_books(console: Console):
    """The books in use (``c4tui.book.load_default()``, ``None`` if there is none), loaded
    now; while the 12-ply database is converted, a progress bar on ``console``."""
    import c4tui.book as pkg

    bar: Progress | None = None
    task: TaskID | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None:
            bar = Progress("converting the 12-ply database (first use)", BarColumn(),
                           TimeElapsedColumn(), console=console, transient=True)
            bar.start()
            task = bar.add_task("", total=total)
        if task is not None:
            bar.update(task, completed=done, total=total)

    try:
        return pkg.load_default(progress=progress)
    finally:
        if bar is not None:
            bar.stop()
