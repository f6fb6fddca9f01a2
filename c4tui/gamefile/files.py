"""Reading and writing game files: size and encoding checks, atomic saves, paths.

Saving is atomic (:func:`c4tui.atomicfile.atomic_write`): a crash never leaves half a
file, and an existing file is only replaced when the caller says so.
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

from c4tui.atomicfile import atomic_write
from c4tui.bounded import FileRefused, read_file, shown
from c4tui.engine.board.position import Position

from .game import Game, GameFileError, GameFileExistsError, format_game, parse_game

GAME_SUFFIX = ".c4g"
# what the file picker and the games list take for game files: the .c4g file, and the
# move string that save_game writes for another suffix (.txt by convention)
GAME_SUFFIXES = (GAME_SUFFIX, ".txt")
MAX_FILE_BYTES = 1 << 20  # a game is a few hundred bytes; anything larger is not one


def data_dir() -> Path:
    """Where games are kept by default: ``$XDG_DATA_HOME/c4tui`` or ``~/.local/share/c4tui``."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "c4tui"


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a game from ``path`` (any of the three formats).

    Raises :class:`GameFileError` with a one-line message; nothing else escapes.
    """
    p = _expand(Path(path))
    name = _shown(p)
    try:
        data = read_file(p, MAX_FILE_BYTES, "game file")
    except FileRefused as exc:
        raise GameFileError(f"{name}: {exc}") from None
    except IsADirectoryError:
        raise GameFileError(f"{name}: is a directory, not a game file") from None
    except FileNotFoundError:
        raise GameFileError(f"{name}: no such file") from None
    except PermissionError:
        raise GameFileError(f"{name}: permission denied") from None
    except OSError as exc:
        raise GameFileError(f"{name}: cannot read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL byte in the name: no file can have it
        raise GameFileError(f"{name}: not a valid file name") from None
    if b"\0" in data:
        raise GameFileError(f"{name}: binary data, not a game file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse_game(text, name)


def save_game(
    path: str | os.PathLike[str],
    game: Game | Position,
    fmt: str | None = None,
    *,
    overwrite: bool = False,
) -> Path:
    """Write ``game`` to ``path`` atomically and return the path written.

    ``fmt`` is ``"game"`` (the ``.c4g`` file), ``"digits"`` or ``"algebraic"``; by default
    it follows the suffix (``.c4g`` or none: game file, anything else: digits). Missing
    parent directories are created. An existing file is kept (:class:`GameFileExistsError`)
    unless ``overwrite``: a UI asks first, then saves again with ``overwrite=True``. A
    game too large for :func:`load_game` (:data:`MAX_FILE_BYTES`) is not written. On any
    error the target is left untouched.
    """
    if isinstance(game, Position):
        game = Game(game)
    p = _expand(Path(path))
    if fmt is None:
        fmt = "game" if p.suffix in ("", GAME_SUFFIX) else "digits"
    if fmt == "game":
        text = format_game(game)
    elif fmt == "digits":
        text = game.position.digits() + "\n"
    elif fmt == "algebraic":
        text = game.position.algebraic() + "\n"
    else:
        raise GameFileError(f"{_shown(p)}: unknown format {fmt!r} "
                            "(expected game, digits or algebraic)")
    data = text.encode("utf-8")
    if len(data) > MAX_FILE_BYTES:  # load_game would refuse it: do not write it
        raise GameFileError(f"{_shown(p)}: not saved: {len(data):,} bytes is too large for "
                            f"a game file (more than {MAX_FILE_BYTES >> 20} MiB)")
    try:
        if p.is_dir():
            raise GameFileError(f"{_shown(p)}: is a directory")
        _make_parents(p)
        atomic_write(p, data, overwrite=overwrite)
    except FileExistsError:
        raise GameFileExistsError(f"{_shown(p)}: already exists (not overwritten)") from None
    except GameFileError:
        raise
    except OSError as exc:
        raise GameFileError(f"{_shown(p)}: cannot write ({exc.strerror or exc})") from None
    except ValueError:  # a NUL byte in the name
        raise GameFileError(f"{_shown(p)}: not a valid file name") from None
    return p


def _make_parents(p: Path) -> None:
    """Create ``p``'s missing directories; a file in the way is named, not "File exists"."""
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        for anc in reversed(p.parents):
            if anc.exists() and not anc.is_dir():
                raise GameFileError(f"{_shown(p)}: {_shown(anc)} is a file, not a directory"
                                    ) from None
        raise


def default_save_path(now: _dt.datetime | None = None) -> Path:
    """A fresh file name in the data directory: ``game-20261122-031500.c4g``."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return data_dir() / f"game-{stamp}{GAME_SUFFIX}"


def resolve_user_path(text: str, base: Path | None = None) -> Path:
    """A path typed in the app: ``~`` expands; a relative path is taken in ``base`` (by
    default the data directory).

    Never raises: a name that cannot be used (``~nobody/x``, a NUL byte) comes back as it
    is, and loading or saving it then gives a one-line :class:`GameFileError`.
    """
    p = Path(text.strip())
    try:
        p = p.expanduser()
    except (RuntimeError, ValueError):  # ~nobody, ~x\0: load_game and save_game say so
        return p
    return p if p.is_absolute() else (base or data_dir()) / p


def _expand(p: Path) -> Path:
    """``p`` with ``~`` expanded; :class:`GameFileError` for ``~nobody`` (no such user)."""
    try:
        return p.expanduser()
    except (RuntimeError, ValueError):  # ~nobody (or a NUL in it), or no home at all
        raise GameFileError(f"{_shown(p)}: cannot expand {p.parts[0]!r} "
                            "(no such user or no home directory)") from None


def _shown(p: Path, width: int = 100) -> str:
    """A path for a one-line message: escaped by :func:`c4tui.bounded.shown` (the one rule
    for untrusted text), a long one shortened in its middle (its end names the file)."""
    text = shown(str(p), None)
    return text if len(text) <= width else text[: width // 2 - 1] + "…" + text[-width // 2:]
