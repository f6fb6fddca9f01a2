"""Loading and saving games: move strings and the small ``.c4g`` game file.

Three formats are read, whichever a file holds:

* a digit string, the perfect solvers' notation: ``4453``;
* algebraic squares, optionally with move numbers: ``d1 d2 e1 c1`` or ``1. d1 d2 2. e1 c1``;
* a ``.c4g`` game file, PGN's little cousin: header lines, then the moves::

      # c4tui game file
      [Event "Analysis"]
      [Date "2026.11.22"]
      [White "?"]
      [Black "?"]
      [Result "*"]

      1. d1 d2 2. e1 c1 *

  Headers are ``[Name "value"]`` lines (any names; ``Result`` is checked against the moves).
  Lines starting with ``#`` or ``;`` are comments. The move text is algebraic with optional
  move numbers (digit strings are accepted too) and may end with the result
  (``1-0`` White won, ``0-1`` Black won, ``1/2-1/2`` draw, ``*`` unfinished).

Every error is a :class:`GameFileError` whose one-line message names the file, the line and
the problem. Saving is atomic (:func:`c4tui.atomicfile.atomic_write`): a crash never
leaves half a file, and an existing file is only replaced when the caller says so.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from c4tui.atomicfile import atomic_write
from c4tui.engine.geometry import COLUMN_NAMES
from c4tui.engine.position import IllegalMoveError, Position, square_name

GAME_SUFFIX = ".c4g"
# what the file picker and the games list take for game files: the .c4g file, and the
# move string that save_game writes for another suffix (.txt by convention)
GAME_SUFFIXES = (GAME_SUFFIX, ".txt")
MAX_FILE_BYTES = 1 << 20  # a game is a few hundred bytes; anything larger is not one
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_HEADER_RE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


class GameFileError(ValueError):
    """A game file that cannot be read or written; the message is one line."""


class GameFileExistsError(GameFileError):
    """Saving would replace an existing file and ``overwrite`` was not given."""


@dataclass
class Game:
    """A move sequence with its headers (name -> value, in file order)."""

    position: Position
    headers: dict[str, str] = field(default_factory=dict)


def data_dir() -> Path:
    """Where games are kept by default: ``$XDG_DATA_HOME/c4tui`` or ``~/.local/share/c4tui``."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "c4tui"


def result_of(pos: Position) -> str:
    """The PGN-style result token of a position: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    if pos.winner is not None:
        return "1-0" if pos.winner == 0 else "0-1"
    return "1/2-1/2" if pos.is_draw else "*"


def numbered_moves(pos: Position) -> str:
    """Algebraic moves with move numbers: ``1. d1 d2 2. e1 c1``."""
    squares = pos.algebraic().split()
    parts = []
    for i, sq in enumerate(squares):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(sq)
    return " ".join(parts)


# Every character str.splitlines() breaks a line at (a header value must stay on its
# line), and NUL (a file holding one is refused as binary data): written as spaces.
_UNWRITABLE = re.compile("[\x00\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _quote(value: str) -> str:
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return _UNWRITABLE.sub(" ", value)


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_game(game: Game) -> str:
    """The ``.c4g`` text of a game (headers first, then the numbered moves and the result)."""
    headers = {
        "Event": "Analysis",
        "Date": _dt.date.today().strftime("%Y.%m.%d"),
        "White": "?",
        "Black": "?",
    }
    headers.update(game.headers)
    headers["Result"] = result_of(game.position)
    lines = ["# c4tui game file"]
    lines += [f'[{k} "{_quote(v)}"]' for k, v in headers.items()]
    lines.append("")
    body = f"{numbered_moves(game.position)} {headers['Result']}".strip()
    lines.append(textwrap.fill(body, 78, break_long_words=False, break_on_hyphens=False))
    return "\n".join(lines) + "\n"


def parse_game(text: str, source: str = "<text>") -> Game:
    """Parse any of the three formats; errors name ``source`` and the line."""
    headers: dict[str, str] = {}
    move_lines: list[tuple[int, str]] = []
    text = text.removeprefix("\ufeff")  # a byte-order mark (load_game drops it too)
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            if move_lines:
                raise GameFileError(f"{source}: line {n}: header after the moves")
            m = _HEADER_RE.match(line)
            if not m:
                raise GameFileError(
                    f'{source}: line {n}: bad header {_clip(line)} (expected [Name "value"])'
                )
            headers[m.group(1)] = _unquote(m.group(2))
            continue
        move_lines.append((n, line))

    # the result token, if any, ends the move text
    tokens: list[tuple[int, str]] = [(n, t) for n, line in move_lines for t in line.split()]
    result_token = tokens.pop()[1] if tokens and tokens[-1][1] in RESULTS else None
    for n, tok in tokens:
        if tok in RESULTS:
            raise GameFileError(f"{source}: line {n}: result {tok!r} before the end of the moves")
    try:
        pos = _play_tokens(tokens)
    except _MoveError as exc:
        raise GameFileError(f"{source}: line {exc.line}: {exc}") from None

    actual = result_of(pos)
    for claimed, what in ((headers.get("Result"), "Result header"), (result_token, "result")):
        if claimed is None:
            continue
        if claimed not in RESULTS:
            raise GameFileError(f"{source}: {what} {claimed!r} is not a result "
                                "(expected 1-0, 0-1, 1/2-1/2 or *)")
        if claimed != "*" and claimed != actual:
            raise GameFileError(
                f"{source}: {what} {claimed!r} does not match the moves (they give {actual!r})"
            )
    return Game(pos, headers)


class _MoveError(ValueError):
    """A move that cannot be played, with the file line it is on."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _play_tokens(tokens: list[tuple[int, str]]) -> Position:
    """Play the move text's tokens (with their file lines) once, in either notation.

    Without any letter the text is digit strings (``4453``, spaces allowed); otherwise
    algebraic squares with optional move numbers (``1. d1 d2``), as ``Position.parse``.
    """
    pos = Position()
    if not any(ch.isalpha() for _, tok in tokens for ch in tok):
        chars = 0
        for n, tok in tokens:
            for ch in tok:
                chars += 1
                if ch not in "1234567":
                    raise _MoveError(n, f"character {chars} {ch!r}: not a column (expected 1-7)")
                _play(pos, int(ch) - 1, n)
        return pos
    for n, tok in ((n, t) for n, text in tokens for t in text.replace(",", " ").split()):
        if tok.rstrip(".").isdigit():
            continue  # a move number
        low = tok.lower()
        where = f"move {pos.ply + 1} {tok!r}"
        if len(low) != 2 or low[0] not in COLUMN_NAMES or low[1] not in "123456":
            raise _MoveError(n, f"{where}: not a square (expected a1-g6)")
        col = COLUMN_NAMES.index(low[0])
        if pos.can_play(col) and pos.height(col) != int(low[1]) - 1:
            raise _MoveError(n, f"{where}: a disc in column {low[0]} lands on "
                             f"{square_name(col, pos.height(col))}")
        _play(pos, col, n)
    return pos


def _play(pos: Position, col: int, line: int) -> None:
    try:
        pos.play(col)
    except IllegalMoveError as exc:
        raise _MoveError(line, str(exc)) from None


def _clip(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[: width - 1] + "…")


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a game from ``path`` (any of the three formats).

    Raises :class:`GameFileError` with a one-line message; nothing else escapes.
    """
    p = _expand(Path(path))
    name = _shown(p)
    try:
        if p.is_dir():
            raise GameFileError(f"{name}: is a directory, not a game file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise GameFileError(f"{name}: {size} bytes is too large for a game file")
        data = p.read_bytes()
    except GameFileError:
        raise
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
    unless ``overwrite``: a UI asks first, then saves again with ``overwrite=True``. On any
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
    try:
        if p.is_dir():
            raise GameFileError(f"{_shown(p)}: is a directory")
        _make_parents(p)
        atomic_write(p, text.encode("utf-8"), overwrite=overwrite)
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
    """A path for a one-line message: control characters escaped, a long one shortened."""
    text = str(p)
    if not text.isprintable():
        text = repr(text)[1:-1]
    return text if len(text) <= width else text[: width // 2 - 1] + "…" + text[-width // 2:]
