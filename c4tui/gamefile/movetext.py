"""The move text of a game file: moves with variations ``( … )`` and comments ``{ … }``.

Reading: :class:`MoveTextReader` takes the move lines one by one (the caller skips
header and ``#``/``;`` lines, except inside a comment, which may span lines) and builds a
:class:`~c4tui.gamefile.tree.Node` tree, playing every move on a :class:`Position` so an
illegal one is named where it is (:meth:`Position.parse_move`'s words). Writing:
:func:`movetext_words`, the one writer of the words (the app's move list draws them too,
compact), and :func:`format_movetext`, the file's text, PGN style::

    1. d1 {the centre} 1... d2 2. e1 (2. c1 c2 (2... e1) 3. d3) 2... c1 *

A variation follows the move it replaces (and that move's comment); a Black move gets
its number (``2...``) where it starts a variation or follows a comment or a variation.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from c4tui.engine.board.position import COLUMN_RANGE, MOVE_CHARS, IllegalMoveError, Position

from .tree import Item, Node, Path, clean_comment, walk

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Words (moves, numbers, comments) and brackets one move text may hold: far more than any
#: analysis (thousands of moves), few enough to read at once.
MAX_TOKENS = 50_000
_TOKEN = re.compile(r"[(){}]|[^\s(){}]+")


class MoveTextError(ValueError):
    """A problem in the move text, with its line (and column, for the brackets)."""

    def __init__(self, line: int, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column

    def where(self) -> str:
        """``line 3`` or ``line 3, column 12``."""
        return f"line {self.line}" + (f", column {self.column}" if self.column else "")


@dataclass
class _Token:
    kind: str  # "word", "(", ")" or "comment"
    text: str
    line: int
    column: int  # 1-based


@dataclass
class _Frame:
    """Where a variation started: the state to go back to at its ``)``."""

    path: Path
    pos: Position
    moved: bool
    opened: _Token


class MoveTextReader:
    """Feed it the move lines (:meth:`feed`), then :meth:`finish` gives the tree."""

    def __init__(self) -> None:
        self._tokens: list[_Token] = []
        self._comment: _Token | None = None  # an open comment (spanning lines)

    @property
    def in_comment(self) -> bool:
        """Whether a ``{`` is open: the next line belongs to the comment, whatever it is."""
        return self._comment is not None

    @property
    def started(self) -> bool:
        """Whether any move text was read (headers may no longer come)."""
        return bool(self._tokens) or self._comment is not None

    def feed(self, line: int, text: str) -> None:
        """Split one line of move text into tokens."""
        i, n = 0, len(text)
        while i < n:
            if self._comment is not None:
                end = text.find("}", i)
                self._comment.text += " " + text[i: n if end < 0 else end]
                if end < 0:
                    return
                self._add(self._comment)
                self._comment, i = None, end + 1
                continue
            m = _TOKEN.search(text, i)
            if m is None:
                return
            tok, i = m.group(), m.end()
            if tok == "{":
                self._comment = _Token("comment", "", line, m.start() + 1)
            elif tok == "}":
                raise MoveTextError(line, "'}' without a '{' before it", m.start() + 1)
            else:
                self._add(_Token(tok if tok in "()" else "word", tok, line, m.start() + 1))

    def _add(self, tok: _Token) -> None:
        if len(self._tokens) >= MAX_TOKENS:
            raise MoveTextError(tok.line, f"more than {MAX_TOKENS} moves, numbers, comments "
                                "and brackets: too long for a game file")
        self._tokens.append(tok)

    def finish(self) -> tuple[Node, Position, str | None]:
        """The tree, the position at the end of its main line, and the result token
        (None if the text has none). Raises :class:`MoveTextError`."""
        if self._comment is not None:
            c = self._comment
            raise MoveTextError(c.line, "comment '{' is never closed (no '}')", c.column)
        tokens = self._tokens
        result = None
        if tokens and tokens[-1].kind == "word" and tokens[-1].text in RESULTS:
            result = tokens.pop().text
        for tok in tokens:
            if tok.kind == "word" and tok.text in RESULTS:
                raise MoveTextError(tok.line, f"result {tok.text!r} before the end of the moves")
        words = [t for t in tokens if t.kind == "word"]
        digits = not any(ch.isalpha() for t in words for ch in t.text)
        return (*_Builder(digits).build(tokens), result)


class _Builder:
    """Plays the tokens into a tree (``digits``: the digit notation, else algebraic)."""

    def __init__(self, digits: bool) -> None:
        self.digits = digits
        self.tree = Node()
        self.path: Path = ()  # the node the next move follows
        self.pos = Position()  # the position at self.path
        self.moved = False  # a move was played at this level (a "(" may vary it)
        self.stack: list[_Frame] = []
        self.chars = 0  # digits read so far (the digit notation's error says which)
        self.comments: dict[Path, list[str]] = {}  # put on the tree at the end, at once

    def build(self, tokens: list[_Token]) -> tuple[Node, Position]:
        for tok in tokens:
            if tok.kind == "word":
                self._word(tok)
            elif tok.kind == "comment":
                self._comment(tok)
            elif tok.kind == "(":
                self._open(tok)
            else:
                self._close(tok)
        if self.stack:
            t = self.stack[-1].opened
            raise MoveTextError(t.line, "variation '(' is never closed (no ')')", t.column)
        for path, texts in self.comments.items():  # paths stay valid: nodes are only added
            self.tree = self.tree.with_comment(path, " ".join(texts))
        end = Position()
        for col in self.tree.cols(self.tree.main_path()):
            end.play(col)
        return self.tree, end

    def _open(self, tok: _Token) -> None:
        if not self.moved:
            raise MoveTextError(tok.line, "'(' with no move before it to vary", tok.column)
        self.stack.append(_Frame(self.path, self.pos.copy(), True, tok))
        self.path = self.path[:-1]
        self.pos.undo()
        self.moved = False

    def _close(self, tok: _Token) -> None:
        if not self.stack:
            raise MoveTextError(tok.line, "')' without a '(' before it", tok.column)
        if not self.moved:
            raise MoveTextError(tok.line, "empty variation '()'", tok.column)
        frame = self.stack.pop()
        self.path, self.pos, self.moved = frame.path, frame.pos, frame.moved

    def _comment(self, tok: _Token) -> None:
        text = clean_comment(tok.text)
        if not text:
            return
        if not self.moved and self.stack:
            raise MoveTextError(tok.line, "a comment before the first move of a variation "
                                "(put it after a move)", tok.column)
        self.comments.setdefault(self.path, []).append(text)

    def _word(self, tok: _Token) -> None:
        if self.digits:
            for ch in tok.text:
                self.chars += 1
                if ch not in MOVE_CHARS:
                    raise MoveTextError(tok.line, f"character {self.chars} {ch!r}: "
                                        f"not a column (expected {COLUMN_RANGE})")
                self._play(MOVE_CHARS.index(ch), tok.line)
            return
        for word in tok.text.split(","):
            if not word or word.rstrip(".…").isdigit():
                continue  # a move number: 1. or 2... (not checked)
            try:
                col = self.pos.parse_move(word)
            except IllegalMoveError as exc:
                raise MoveTextError(tok.line, f"move {self.pos.ply + 1} {exc}") from None
            self._play(col, tok.line)

    def _play(self, col: int, line: int) -> None:
        try:
            self.pos.play(col)
        except IllegalMoveError as exc:
            raise MoveTextError(line, str(exc)) from None
        self.tree, self.path = self.tree.add(self.path, col)
        self.moved = True


class Word(NamedTuple):
    """A word of the move text: ``kind`` is ``number`` (``2.``), ``move`` (the square
    played), ``comment`` (one word of a comment, the braces on its first and last word),
    ``(`` or ``)``; ``item`` is the step of :func:`~c4tui.gamefile.tree.walk` it writes."""

    kind: str
    text: str
    item: Item


def move_number(ply: int, compact: bool = False) -> str:
    """The number of the move made at 0-based ``ply``: ``3.`` for White's third move,
    ``2...`` for Black's second (``2…`` when ``compact``: the screen's)."""
    return f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}{'…' if compact else '...'}"


def movetext_words(root: Node, compact: bool = False) -> Iterator[Word]:
    """The tree's move text as words, in PGN order: the one writer of a game's moves, for
    the file (:func:`format_movetext`) and the screen (the app's move list, ``compact``).

    White's moves are numbered. A Black move is numbered where it starts a variation and,
    in the file (PGN's convention), also after a comment or a variation: ``2... e2``; the
    screen's compact form numbers it only at a variation's start, with ``…``.
    """
    number = True  # a Black move needs its number here
    for item in walk(root):
        if item.kind == "move":
            if item.ply % 2 == 0 or number:
                yield Word("number", move_number(item.ply, compact), item)
            yield Word("move", item.square, item)
            number = False
        elif item.kind == "comment":
            yield from (Word("comment", w, item) for w in _comment_words(item.node.comment))
            number = number or not compact
        else:  # "(" or ")"
            yield Word(item.kind, item.kind, item)
            number = item.kind == "(" or not compact


def format_movetext(root: Node, result: str, width: int = 78) -> str:
    """The tree's move text, PGN style, ending with ``result``, wrapped at ``width``
    (a line breaks between words only, so a long comment word may pass it)."""
    words: list[str] = []
    glue = False  # the next word follows a "(" directly
    for word in movetext_words(root):
        if word.kind == ")":
            words[-1] += ")"
        elif word.kind == "(":
            glue = True
        else:
            words.append(("(" if glue else "") + word.text)
            glue = False
    words.append(result)
    return textwrap.fill(" ".join(words), width, break_long_words=False,
                         break_on_hyphens=False)


def _comment_words(comment: str) -> list[str]:
    """``{a few words}`` as words (the braces glued on), so the text wraps inside it."""
    parts = comment.split(" ")
    parts[0] = "{" + parts[0]
    parts[-1] += "}"
    return parts
