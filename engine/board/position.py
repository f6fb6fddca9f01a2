"""Connect Four positions: bitboards, moves, notations.

A :class:`Position` is a small pure-Python object (the numba kernels take its two words,
``current`` and ``mask``). It is the type the app, the CLI and the searches exchange.

Notations:

* digit strings, the perfect solvers' convention: ``"4453"`` (columns 1-7 on 7x6, first
  move first; a board of 10 or more columns writes columns 10-25 as ``A``-``P``, one
  character per move, as digits of base 36 do);
* algebraic squares, MILTON's: ``"d1 d2 e1 c1"`` (column a-g on 7x6, then the row 1-6 the
  disc lands on);
* 0-based digit strings, BitBully's and Steininger's c4's, behind the prefix ``0:``:
  ``"0:3342"`` is ``"4453"`` (columns 0-6 on 7x6);
* links of connect4.gamesolver.org (and any tool's link with a ``pos=`` query of the same
  1-based digits): ``"https://connect4.gamesolver.org/?pos=4453"``.

:meth:`Position.parse` reads all four, the one reading of a typed position for the CLI and
the app; :meth:`Position.link` and :meth:`Position.zero_based` write the last two.

Illegal input raises :class:`IllegalMoveError` (a ``ValueError``) whose message says what
and where, e.g. ``move 5 (d): column d is full``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .geometry import (
    BOARD,
    BOTTOM,
    CENTER_ORDER,
    COLUMN_NAMES,
    H1,
    HEIGHT,
    SIZE,
    WIDTH,
    bottom_bit,
    column_bits,
    square_bit,
    top_bit,
)

WHITE = 0  #: the first player
BLACK = 1  #: the second player
PLAYER_NAMES = ("White", "Black")


class IllegalMoveError(ValueError):
    """A move or a move sequence that cannot be played; the message says what and where."""


def winning_squares(stones: int, mask: int) -> int:
    """Empty squares (playable now or not) that would complete a four for ``stones``."""
    p = stones
    # vertical
    r = (p << 1) & (p << 2) & (p << 3)
    for shift in (H1, H1 - 1, H1 + 1):  # horizontal, diagonal /, diagonal \
        t = (p << shift) & (p << 2 * shift)
        r |= t & (p << 3 * shift)
        r |= t & (p >> shift)
        t = (p >> shift) & (p >> 2 * shift)
        r |= t & (p << shift)
        r |= t & (p >> 3 * shift)
    return r & (BOARD ^ mask)


def can_win_next(current: int, mask: int) -> bool:
    """Whether the side to move, whose discs are ``current``, completes a four with its
    next disc (Pons's ``canWinNext``): a win at once. The books' loops call it on the two
    words; a :class:`Position` has :meth:`Position.can_win_next`."""
    return bool(winning_squares(current, mask) & (mask + BOTTOM) & BOARD)


def winning_move(current: int, mask: int) -> int | None:
    """The most central column (0-based) where the side to move, whose discs are
    ``current``, completes a four with its next disc, or ``None``."""
    wins = winning_squares(current, mask) & (mask + BOTTOM) & BOARD
    return next((c for c in CENTER_ORDER if wins & column_bits(c)), None) if wins else None


def has_four(stones: int) -> bool:
    """Whether ``stones`` contain four in a row."""
    for shift in (1, H1, H1 - 1, H1 + 1):
        m = stones & (stones >> shift)
        if m & (m >> 2 * shift):
            return True
    return False


def _four_squares(stones: int) -> list[tuple[int, int]]:
    """Squares (col, row) of every four contained in ``stones``."""
    found: set[tuple[int, int]] = set()
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < WIDTH and 0 <= rr < HEIGHT for cc, rr in cells) and all(
                    stones & square_bit(cc, rr) for cc, rr in cells
                ):
                    found.update(cells)
    return sorted(found)


def square_name(col: int, row: int) -> str:
    """Algebraic name of a square, 0-based column and row: (3, 0) -> ``d1``."""
    return f"{COLUMN_NAMES[col]}{row + 1}"


#: The characters of the digit notation, one per column: 1-9, then A-P (columns 10-25:
#: geometry.MAX_WIDTH; a column of two digits would make "110" ambiguous).
MOVE_CHARS = "123456789ABCDEFGHIJKLMNOP"[:WIDTH]
#: How the notations' columns and squares read in messages: "1-7", "a1-g6" on 7x6.
COLUMN_RANGE = f"1-{MOVE_CHARS[-1]}"
SQUARE_RANGE = f"a1-{COLUMN_NAMES[-1]}{HEIGHT}"
#: The 0-based notation: its prefix and its characters, one per column (0-9, then A-O).
ZERO_BASED_PREFIX = "0:"
ZERO_BASED_CHARS = "0123456789ABCDEFGHIJKLMNO"[:WIDTH]
#: connect4.gamesolver.org's link to a position: its 1-based digits follow.
GAMESOLVER_LINK = "https://connect4.gamesolver.org/?pos="
#: How much of a link an error quotes (its ``pos=`` is at the end).
LINK_CHARS = 100
#: How much of a bad word a message quotes (a word may be thousands of characters long).
SHOWN_CHARS = 40


def parse_square(word: str) -> tuple[int, int] | None:
    """The 0-based (column, row) of a square name such as ``d1`` (any case), or None.

    The one square grammar of every notation. The row is converted only when it has at
    most two ASCII digits: ``int`` refuses more than 4300 digits with a ``ValueError`` of
    its own, and ``str.isdigit`` alone takes ``"²"``, which ``int`` refuses too.
    """
    low, row = word.lower(), word[1:]
    if not (1 <= len(row) <= 2 and row.isascii() and row.isdigit()) or low[0] not in COLUMN_NAMES:
        return None
    r = int(row) - 1
    return (COLUMN_NAMES.index(low[0]), r) if 0 <= r < HEIGHT else None


def is_link(text: str) -> bool:
    """``text`` is written as a link (``https://…``, ``…gamesolver.org…``, ``?pos=…``),
    so :meth:`Position.parse` reads its ``pos=`` query."""
    low = text.lower()
    return "://" in low or "gamesolver.org" in low or low.startswith("?pos=")


def shown(word: str, width: int = SHOWN_CHARS) -> str:
    """``repr(word)`` of at most ``width`` characters (an ellipsis marks a cut): what an
    error message quotes of the input."""
    return repr(word if len(word) <= width else word[: width - 1] + "…")


class Position:
    """A Connect Four position reached from the empty board by a list of moves.

    ``current`` holds the discs of the side to move, ``mask`` all discs (Pons's layout, see
    :mod:`c4tui.engine.board.geometry`). ``history`` lists the columns played (0-based).
    """

    __slots__ = ("current", "mask", "history", "_winner")

    def __init__(self) -> None:
        self.current = 0
        self.mask = 0
        self.history: list[int] = []
        self._winner: int | None = None

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_moves(cls, moves: str | Iterable[int]) -> Position:
        """Build from a digit string (``"4453"``, columns 1-7 on 7x6, see :data:`MOVE_CHARS`)
        or 1-based column numbers."""
        pos = cls()
        if isinstance(moves, str):
            text = moves.strip()
            for i, ch in enumerate(text):
                if ch not in MOVE_CHARS:
                    raise IllegalMoveError(
                        f"character {i + 1} {ch!r}: not a column (expected {COLUMN_RANGE})"
                    )
            cols = [MOVE_CHARS.index(ch) + 1 for ch in text]
        else:
            cols = list(moves)
        for i, c in enumerate(cols):
            if not isinstance(c, int) or not 1 <= c <= WIDTH:
                raise IllegalMoveError(
                    f"move {i + 1}: {c!r} is not a column (expected 1-{WIDTH})")
            pos._play_checked(c - 1, i + 1)
        return pos

    @classmethod
    def from_algebraic(cls, text: str) -> Position:
        """Build from algebraic squares separated by spaces or commas: ``"d1 d2 e1"``.

        Move numbers such as ``1.`` are ignored, so a move list copied from the app parses.
        """
        pos = cls()
        n = 0
        for token in text.replace(",", " ").split():
            if token.rstrip(".").isdigit():
                continue  # a move number
            n += 1
            try:
                col = pos.parse_move(token)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {n} {exc}") from None
            pos._play_checked(col, n)
        return pos

    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse any notation of the module docstring; an empty string is the empty board.

        A link's or a 0-based string's error names it: ``link '…?pos=4458': character 4
        '8': not a column (expected 1-7)``.
        """
        stripped = text.strip()
        if is_link(stripped):
            return cls._from_link(stripped)
        if stripped.startswith(ZERO_BASED_PREFIX):
            return cls._from_zero_based(stripped)
        if not stripped or all(ch in MOVE_CHARS for ch in stripped):
            return cls.from_moves(stripped)
        if any(ch.isalpha() for ch in stripped):
            return cls.from_algebraic(stripped)
        return cls.from_moves(stripped.replace(" ", ""))

    @classmethod
    def _from_link(cls, link: str) -> Position:
        """The position of a link's ``pos=`` query (1-based digits, gamesolver.org's)."""
        from urllib.parse import parse_qs, urlsplit

        named = f"link {shown(link, LINK_CHARS)}"
        try:
            query = parse_qs(urlsplit(link).query, keep_blank_values=True)
        except ValueError as exc:  # e.g. a bad IPv6 host
            raise IllegalMoveError(f"{named}: {exc}") from None
        values = query.get("pos")
        if values is None:
            raise IllegalMoveError(f"{named}: no ?pos= with the moves (as in "
                                   f"{GAMESOLVER_LINK}4453)")
        if len(values) > 1:
            raise IllegalMoveError(f"{named}: {len(values)} pos= fields, expected one")
        try:
            return cls.from_moves(values[0])
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{named}: {exc}") from None

    @classmethod
    def _from_zero_based(cls, text: str) -> Position:
        """A ``0:`` string: 0-based columns (BitBully's, Steininger's c4's)."""
        moves = text.removeprefix(ZERO_BASED_PREFIX).strip()
        for i, ch in enumerate(moves):
            if ch.upper() not in ZERO_BASED_CHARS:
                raise IllegalMoveError(
                    f"0-based {shown(text)}: character {i + 1} {ch!r}: not a column "
                    f"(expected 0-{ZERO_BASED_CHARS[-1]})")
        try:
            return cls.from_moves([ZERO_BASED_CHARS.index(ch.upper()) + 1 for ch in moves])
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"0-based {shown(text)}: {exc}") from None

    def copy(self) -> Position:
        """An independent copy."""
        p = Position()
        p.current, p.mask, p.history, p._winner = (
            self.current,
            self.mask,
            list(self.history),
            self._winner,
        )
        return p

    # ---------------------------------------------------------------------- queries
    @property
    def ply(self) -> int:
        """Number of discs on the board."""
        return len(self.history)

    @property
    def to_move(self) -> int:
        """Player to move: :data:`WHITE` (0) or :data:`BLACK` (1)."""
        return self.ply & 1

    @property
    def winner(self) -> int | None:
        """The player who completed a four, or ``None``."""
        return self._winner

    @property
    def is_draw(self) -> bool:
        """Board full with no four."""
        return self._winner is None and self.ply == SIZE

    @property
    def is_over(self) -> bool:
        """A four was made or the board is full."""
        return self._winner is not None or self.ply == SIZE

    def height(self, col: int) -> int:
        """Number of discs in column ``col`` (0-based)."""
        return bin(self.mask & column_bits(col)).count("1")

    def can_play(self, col: int) -> bool:
        """Whether column ``col`` (0-based) has room (ignores whether the game is over)."""
        return 0 <= col < WIDTH and not self.mask & top_bit(col)

    def legal_moves(self) -> list[int]:
        """Playable columns (0-based), none once the game is over."""
        if self.is_over:
            return []
        return [c for c in range(WIDTH) if self.can_play(c)]

    def stones(self, player: int) -> int:
        """Bitboard of ``player``'s discs."""
        return self.current if player == self.to_move else self.current ^ self.mask

    def cell(self, col: int, row: int) -> int | None:
        """Owner of a square (0-based column, row from the bottom), or ``None``."""
        bit = square_bit(col, row)
        if not self.mask & bit:
            return None
        return self.to_move if self.current & bit else 1 - self.to_move

    def is_winning_move(self, col: int) -> bool:
        """Whether playing ``col`` now completes a four for the side to move."""
        if not self.can_play(col):
            return False
        landing = (self.mask + bottom_bit(col)) & column_bits(col)
        return bool(winning_squares(self.current, self.mask) & landing)

    def can_win_next(self) -> bool:
        """Whether the side to move completes a four with its next disc (a win at once;
        never once the game is over)."""
        return not self.is_over and can_win_next(self.current, self.mask)

    def winning_move(self) -> int | None:
        """The most central column (0-based) that completes a four now, or ``None``."""
        return None if self.is_over else winning_move(self.current, self.mask)

    def threats(self, player: int) -> int:
        """Empty squares that would complete a four for ``player`` (bitboard)."""
        return winning_squares(self.stones(player), self.mask)

    def possible_squares(self) -> int:
        """The square each non-full column would be filled at next (bitboard)."""
        return (self.mask + BOTTOM) & BOARD

    def winning_four(self) -> list[tuple[int, int]]:
        """Squares (col, row) of the completed four(s), empty if the game is not won."""
        if self._winner is None:
            return []
        return _four_squares(self.stones(self._winner))

    def key(self) -> int:
        """Unique key of the position (``current + mask``; 49 bits on 7x6)."""
        return self.current + self.mask

    def mirror(self) -> Position:
        """The mirror image (columns reversed), with the mirrored move history."""
        return Position.from_moves([WIDTH - c for c in self.history])

    def moves_iter(self) -> Iterator[tuple[int, int, int]]:
        """Yield ``(ply, col, row)`` for every move played, 0-based."""
        heights = [0] * WIDTH
        for i, c in enumerate(self.history):
            yield i, c, heights[c]
            heights[c] += 1

    # -------------------------------------------------------------------- notations
    def parse_move(self, word: str) -> int:
        """The column (0-based) of a move written as the square its disc lands on here
        (``d1``, any case): the one reading of a square as a move, for every notation.

        Raises :class:`IllegalMoveError` naming the word and why: ``'h1': not a square
        (expected a1-g6)``, ``'d3': a disc in column d lands on d2``, ``'d6': column d is
        full``, ``'d1': the game is over (White has won)``. Callers put ``move N`` before it.
        """
        square = parse_square(word)
        if square is None:
            raise IllegalMoveError(f"{shown(word)}: not a square (expected {SQUARE_RANGE})")
        col, row = square
        if self.is_over:
            why = ("the board is full" if self._winner is None
                   else f"{PLAYER_NAMES[self._winner]} has won")
            raise IllegalMoveError(f"{shown(word)}: the game is over ({why})")
        if not self.can_play(col):
            raise IllegalMoveError(f"{shown(word)}: column {COLUMN_NAMES[col]} is full")
        if self.height(col) != row:
            raise IllegalMoveError(f"{shown(word)}: a disc in column {COLUMN_NAMES[col]} "
                                   f"lands on {self.landing_square(col)}")
        return col

    def landing_square(self, col: int) -> str:
        """The square a disc dropped in column ``col`` (0-based, not full) lands on: ``d1``."""
        return square_name(col, self.height(col))

    def line_squares(self, cols: Iterable[int]) -> list[str]:
        """A line of moves (0-based columns) played from here, as the squares they land on
        (``["d1", "d2", "e1"]``), up to its first move that cannot be played."""
        p = self.copy()
        out: list[str] = []
        for col in cols:
            if p.is_over or not p.can_play(col):
                break
            out.append(p.landing_square(col))
            p.play(col)
        return out

    def digits(self) -> str:
        """The move sequence as a digit string (``"4453"``)."""
        return "".join(MOVE_CHARS[c] for c in self.history)

    def zero_based(self) -> str:
        """The move sequence as a 0-based digit string with its prefix (``"0:3342"``)."""
        return ZERO_BASED_PREFIX + "".join(ZERO_BASED_CHARS[c] for c in self.history)

    def link(self) -> str:
        """connect4.gamesolver.org's link to this position (its ``pos=``: 1-based digits)."""
        return GAMESOLVER_LINK + self.digits()

    def algebraic(self) -> str:
        """The move sequence as algebraic squares (``"d1 d2 e1 c1"``)."""
        return " ".join(square_name(c, r) for _, c, r in self.moves_iter())

    def __str__(self) -> str:
        rows = []
        white = self.stones(WHITE)
        for r in range(HEIGHT - 1, -1, -1):
            line = []
            for c in range(WIDTH):
                bit = square_bit(c, r)
                line.append("." if not self.mask & bit else ("X" if white & bit else "O"))
            rows.append(f"{r + 1} " + " ".join(line))
        rows.append("  " + " ".join(COLUMN_NAMES))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Position.from_moves({self.digits()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, for Jupyter (as python-chess's boards show
        themselves): discs, the last move and both sides' threats
        (:func:`c4tui.engine.board.picture.board_svg`; pure Python, no kernel is loaded)."""
        from .picture import board_svg  # it imports this module

        return board_svg(self)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.current == other.current
            and self.mask == other.mask
        )

    def __hash__(self) -> int:
        return hash((self.current, self.mask))

    # ---------------------------------------------------------------------- playing
    def play(self, col: int) -> None:
        """Play column ``col`` (0-based); raises :class:`IllegalMoveError` if illegal."""
        self._play_checked(col, self.ply + 1)

    def _play_checked(self, col: int, move_no: int) -> None:
        where = f"move {move_no}"
        if not 0 <= col < WIDTH:
            raise IllegalMoveError(
                f"{where}: {col + 1} is not a column (expected 1-{WIDTH})")
        name = f"{where} ({COLUMN_NAMES[col]})"
        if self._winner is not None:
            raise IllegalMoveError(
                f"{name}: the game is over ({PLAYER_NAMES[self._winner]} has won)"
            )
        if not self.can_play(col):
            raise IllegalMoveError(f"{name}: column {COLUMN_NAMES[col]} is full")
        winning = self.is_winning_move(col)
        mover = self.to_move
        self.current ^= self.mask
        self.mask |= self.mask + bottom_bit(col)
        self.history.append(col)
        if winning:
            self._winner = mover

    def undo(self) -> int:
        """Take back the last move and return its column (0-based)."""
        if not self.history:
            raise IllegalMoveError("undo: no move to take back")
        col = self.history.pop()
        top = 1 << (col * H1 + self.height(col) - 1)
        self.mask ^= top
        self.current ^= self.mask
        self._winner = None
        return col
