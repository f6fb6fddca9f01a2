"""The recent-files list: the last game files opened or saved, newest first.

Kept as a small JSON file in the user state directory (:func:`store_path`), written
atomically. The list is a convenience: a store that is missing starts an empty list, one
that cannot be read or parsed is ignored with a one-line warning, and a store that cannot be
written only costs the warning; nothing here raises.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from c4tui.atomicfile import atomic_write
from c4tui.bounded import FileRefused, read_file

MAX_RECENT = 10
_VERSION = 1
_MAX_STORE_BYTES = 1 << 16  # ten paths; anything larger is not our store


def store_path() -> Path:
    """The recent-files store: ``recent.json`` in the user state directory
    (``$XDG_STATE_HOME/c4tui``, by default ``~/.local/state/c4tui`` on Linux)."""
    return Path(platformdirs.user_state_dir("c4tui")) / "recent.json"


@dataclass
class RecentFiles:
    """The list read from the store, and the warning to show if the store was unusable."""

    files: list[Path] = field(default_factory=list)
    warning: str | None = None


def load_recent(store: Path | None = None) -> RecentFiles:
    """The recent files, newest first; a missing store is an empty list, an unusable one
    an empty list with a one-line ``warning``."""
    store = store or store_path()
    try:
        data = json.loads(read_file(store, _MAX_STORE_BYTES, "recent-files list")
                          .decode("utf-8"))
    except FileNotFoundError:
        return RecentFiles()
    except FileRefused as exc:  # a FIFO or a device in its place must not block or fill us
        return RecentFiles(warning=f"recent files: {store}: {exc}, ignored")
    except OSError as exc:
        return RecentFiles(warning=f"recent files: {store}: cannot read "
                                   f"({exc.strerror or exc}), ignored")
    except (ValueError, RecursionError):  # not UTF-8, not JSON, absurdly nested
        return RecentFiles(warning=f"recent files: {store}: not a recent-files list, ignored")
    if not (isinstance(data, dict) and data.get("version") == _VERSION
            and isinstance(files := data.get("files"), list)
            and all(isinstance(f, str) and f for f in files)):
        return RecentFiles(warning=f"recent files: {store}: not a recent-files list, ignored")
    paths: list[Path] = []
    for f in files:
        p = Path(f)
        if p.is_absolute() and p not in paths and "\0" not in f:
            paths.append(p)
    return RecentFiles(paths[:MAX_RECENT])


def add_recent(path: Path, store: Path | None = None) -> RecentFiles:
    """Put ``path`` (made absolute) first in the list and write the store atomically.

    Returns the new list; its ``warning`` says why the old store was ignored or why the
    new one could not be written (the list is then only this session's).
    """
    store = store or store_path()
    old = load_recent(store)
    path = Path(os.path.abspath(path))
    files = [path, *(p for p in old.files if p != path)][:MAX_RECENT]
    text = json.dumps({"version": _VERSION, "files": [str(p) for p in files]}, indent=1)
    warning = old.warning
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(store, (text + "\n").encode("utf-8"), overwrite=True)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        warning = f"recent files: {store}: cannot write ({why})"
    return RecentFiles(files, warning)
