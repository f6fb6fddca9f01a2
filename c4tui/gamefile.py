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
the problem. Saving is atomic: the text goes to a temporary file in the target directory,
which is flushed, synced and renamed over the target, so a crash never leaves half a file.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from c4tui.engine.position import IllegalMoveError, Position

GAME_SUFFIX = ".c4g"
MAX_FILE_BYTES = 1 << 20  # a game is a few hundred bytes; anything larger is not one
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_HEADER_RE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


class GameFileError(ValueError):
    """A game file that cannot be read or written; the message is one line."""


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


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


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
    moves = numbered_moves(game.position)
    body = f"{moves} {headers['Result']}".strip()
    # wrap the move text at ~78 columns so the file reads well
    out, line = [], ""
    for tok in body.split():
        if line and len(line) + 1 + len(tok) > 78:
            out.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    out.append(line)
    lines += out
    return "\n".join(lines) + "\n"


def parse_game(text: str, source: str = "<text>") -> Game:
    """Parse any of the three formats; errors name ``source`` and the line."""
    headers: dict[str, str] = {}
    move_lines: list[tuple[int, str]] = []
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
    result_token: str | None = None
    tokens: list[tuple[int, str]] = [(n, t) for n, line in move_lines for t in line.split()]
    if tokens and tokens[-1][1] in RESULTS:
        result_token = tokens.pop()[1]
    for n, tok in tokens:
        if tok in RESULTS:
            raise GameFileError(f"{source}: line {n}: result {tok!r} before the end of the moves")

    text_moves = " ".join(t for _, t in tokens)
    try:
        pos = Position.parse(text_moves)
    except IllegalMoveError as exc:
        line_no = _line_of_error(str(exc), tokens)
        where = f"line {line_no}: " if line_no else ""
        raise GameFileError(f"{source}: {where}{exc}") from None

    actual = result_of(pos)
    for claimed, what in ((headers.get("Result"), "Result header"), (result_token, "result")):
        if claimed is not None and claimed != "*" and claimed != actual:
            raise GameFileError(
                f"{source}: {what} {claimed!r} does not match the moves (they give {actual!r})"
            )
        if claimed is not None and claimed not in RESULTS:
            raise GameFileError(
                f"{source}: {what} {claimed!r} is not one of 1-0, 0-1, 1/2-1/2, *"
            )
    return Game(pos, headers)


def _line_of_error(message: str, tokens: list[tuple[int, str]]) -> int | None:
    """Map Position's ``move N`` / ``character N`` in an error back to a file line."""
    m = re.match(r"(move|character) (\d+)", message)
    if not tokens:
        return None
    if not m:
        return tokens[0][0]
    k = int(m.group(2))
    digit_mode = not any(ch.isalpha() for _, t in tokens for ch in t)
    seen = 0
    for n, t in tokens:
        if digit_mode:
            seen += len(t)
        elif t.rstrip(".").isdigit():
            continue  # a move number
        else:
            seen += 1
        if seen >= k:
            return n
    return tokens[-1][0]


def _clip(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[: width - 1] + "…")


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a game from ``path`` (any of the three formats).

    Raises :class:`GameFileError` with a one-line message; nothing else escapes.
    """
    p = Path(path).expanduser()
    name = str(p)
    try:
        if p.is_dir():
            raise GameFileError(f"{name}: is a directory, not a game file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise GameFileError(f"{name}: {size} bytes is too large for a game file")
        data = p.read_bytes()
    except FileNotFoundError:
        raise GameFileError(f"{name}: no such file") from None
    except PermissionError:
        raise GameFileError(f"{name}: permission denied") from None
    except OSError as exc:
        raise GameFileError(f"{name}: cannot read ({exc.strerror or exc})") from None
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
) -> Path:
    """Write ``game`` to ``path`` atomically and return the path written.

    ``fmt`` is ``"game"`` (the ``.c4g`` file), ``"digits"`` or ``"algebraic"``; by default
    it follows the suffix (``.c4g`` or none: game file, anything else: digits). Missing
    parent directories are created. On any error the target is left untouched.
    """
    if isinstance(game, Position):
        game = Game(game)
    p = Path(path).expanduser()
    if fmt is None:
        fmt = "game" if p.suffix in ("", GAME_SUFFIX) else "digits"
    if fmt == "game":
        text = format_game(game)
    elif fmt == "digits":
        text = game.position.digits() + "\n"
    elif fmt == "algebraic":
        text = game.position.algebraic() + "\n"
    else:
        raise GameFileError(f"{p}: unknown format {fmt!r} (expected game, digits or algebraic)")
    if p.is_dir():
        raise GameFileError(f"{p}: is a directory")
    tmp_name = None
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, p)
        tmp_name = None
    except OSError as exc:
        raise GameFileError(f"{p}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
    return p


def default_save_path(now: _dt.datetime | None = None) -> Path:
    """A fresh file name in the data directory: ``game-20261122-031500.c4g``."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return data_dir() / f"game-{stamp}{GAME_SUFFIX}"


def resolve_user_path(text: str) -> Path:
    """A path typed in the app: ``~`` expands; a relative path is taken in the data directory."""
    p = Path(text.strip()).expanduser()
    return p if p.is_absolute() else data_dir() / p
