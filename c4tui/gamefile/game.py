"""A game and its text: headers, then the move text (:mod:`.movetext`) and the result."""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

from c4tui.bounded import shown
from c4tui.engine.board import geometry
from c4tui.engine.board.position import Position

from .movetext import RESULTS, MoveTextError, MoveTextReader, format_movetext
from .tree import Node

_HEADER_RE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


class GameFileError(ValueError):
    """A game file that cannot be read or written; the message is one line."""


class GameSizeError(GameFileError):
    """A well-formed game of another board size than the process runs (``size``: its
    ``(width, height)``)."""

    def __init__(self, message: str, size: tuple[int, int]) -> None:
        super().__init__(message)
        self.size = size


class GameFileExistsError(GameFileError):
    """Saving would replace an existing file and ``overwrite`` was not given."""


@dataclass
class Game:
    """A game: the position at the end of its main line, the headers (name -> value, in
    file order) and the tree of moves with variations and comments. Without a tree the
    game is the position's moves alone; with one, ``position`` is its main line's end."""

    position: Position
    headers: dict[str, str] = field(default_factory=dict)
    tree: Node = None  # type: ignore[assignment]  # set from position when not given

    def __post_init__(self) -> None:
        if self.tree is None:
            self.tree = Node.from_moves(self.position.history)
        elif self.tree.cols(self.tree.main_path()) != self.position.history:
            raise ValueError("Game: the position is not the end of the tree's main line")

    @classmethod
    def from_tree(cls, tree: Node, headers: dict[str, str] | None = None) -> Game:
        """The game of ``tree`` (its moves must be legal)."""
        pos = Position()
        for col in tree.cols(tree.main_path()):
            pos.play(col)
        return cls(pos, dict(headers or {}), tree)


def result_of(pos: Position) -> str:
    """The PGN-style result token of a position: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    if pos.winner is not None:
        return "1-0" if pos.winner == 0 else "0-1"
    return "1/2-1/2" if pos.is_draw else "*"


# Every character str.splitlines() breaks a line at (a header value must stay on its
# line), and NUL (a file holding one is refused as binary data): written as spaces.
_UNWRITABLE = re.compile("[\x00\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _quote(value: str) -> str:
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return _UNWRITABLE.sub(" ", value)


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_game(game: Game) -> str:
    """The ``.c4g`` text of a game (headers first, then the move text and the result)."""
    headers = {
        "Event": "Analysis",
        "Date": _dt.date.today().strftime("%Y.%m.%d"),
        "White": "?",
        "Black": "?",
    }
    headers.update(game.headers)
    headers["Size"] = geometry.NAME
    headers["Result"] = result_of(game.position)
    lines = ["# c4tui game file"]
    lines += [f'[{k} "{_quote(v)}"]' for k, v in headers.items()]
    lines.append("")
    lines.append(format_movetext(game.tree, headers["Result"]))
    return "\n".join(lines) + "\n"


def parse_game(text: str, source: str = "<text>") -> Game:
    """Parse any of the three formats; errors name ``source`` and the line."""
    headers: dict[str, str] = {}
    reader = MoveTextReader()
    text = text.removeprefix("\ufeff")  # a byte-order mark (load_game drops it too)
    sized = False  # the Size header is checked before the first move is played
    try:
        for n, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if reader.in_comment:  # a { comment } spanning lines: nothing else counts
                reader.feed(n, raw)
                continue
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                if reader.started:
                    raise GameFileError(f"{source}: line {n}: header after the moves")
                m = _HEADER_RE.match(line)
                if not m:
                    raise GameFileError(
                        f"{source}: line {n}: bad header '{shown(line, 40)}' "
                        '(expected [Name "value"])'
                    )
                headers[m.group(1)] = _unquote(m.group(2))
                continue
            if not sized:
                _check_size(headers, source)
                sized = True
            reader.feed(n, raw)
        if not sized:
            _check_size(headers, source)
        tree, pos, result_token = reader.finish()
    except MoveTextError as exc:
        raise GameFileError(f"{source}: {exc.where()}: {exc}") from None

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
    return Game(pos, headers, tree)


def _check_size(headers: dict[str, str], source: str) -> None:
    """A game file's ``Size`` header (none: 7x6) must be the size c4tui runs; bare move
    text (no headers at all) is played on that size."""
    if not headers:
        return
    text = headers.get("Size")
    try:
        size = geometry.parse_size(text) if text is not None else (
            geometry.DEFAULT_WIDTH, geometry.DEFAULT_HEIGHT)
    except geometry.BoardSizeError as exc:
        raise GameFileError(f"{source}: Size header: {exc}") from None
    if size != (geometry.WIDTH, geometry.HEIGHT):
        name = geometry.size_name(*size)
        raise GameSizeError(f"{source}: a {name} game{'' if text else ' (no Size header)'}, "
                            f"but c4tui runs {geometry.NAME} (open it with --size {name})", size)

