"""Fuzzing the move strings (``Position.parse``): both notations, valid and broken.

Wanted of every input: a Position, or an ``IllegalMoveError`` whose message is one line
and says where (``character N`` or ``move N``, and N is the right place); nothing else.
"""

from __future__ import annotations

import re

from c4tui.engine.board.geometry import COLUMN_NAMES
from c4tui.engine.board.position import IllegalMoveError, Position
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st

WHERE = re.compile(r"^(character|move) (\d+)\b")


def check_error(exc: ValueError) -> tuple[str, int]:
    """The error is an IllegalMoveError with one line that starts by saying where."""
    assert isinstance(exc, IllegalMoveError), repr(exc)
    msg = str(exc)
    assert msg and "\n" not in msg and "\r" not in msg and len(msg) < 200, msg
    m = WHERE.match(msg)
    assert m, msg
    return m.group(1), int(m.group(2))


@st.composite
def games(draw: st.DrawFn, max_plies: int = 42) -> list[int]:
    """A legal sequence of 0-based columns (it may end the game)."""
    pos = Position()
    cols: list[int] = []
    n = draw(st.integers(0, max_plies))
    for _ in range(n):
        if pos.is_over:
            break
        col = draw(st.sampled_from(pos.legal_moves()))
        pos.play(col)
        cols.append(col)
    return cols


def algebraic(cols: list[int], numbers: bool, upper: bool, sep: str) -> str:
    """The squares of ``cols``, optionally with move numbers, upper case, commas."""
    pos = Position()
    words = []
    for i, c in enumerate(cols):
        if numbers and i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        sq = f"{COLUMN_NAMES[c]}{pos.height(c) + 1}"
        words.append(sq.upper() if upper else sq)
        pos.play(c)
    return sep.join(words)


def _parse(text: str) -> Position | ValueError:
    try:
        return Position.parse(text)
    except ValueError as exc:  # anything else escapes and fails the test
        return exc


@fuzz(fast=60)
@given(games(), st.booleans(), st.booleans(), st.sampled_from([" ", ", ", "  ", ","]),
       st.sampled_from(["", " ", "\t", "\n"]))
def test_valid_games_parse_in_both_notations(cols, numbers, upper, sep, pad):
    """Every legal game reads back, as digits and as squares, padded or not."""
    count("moves: valid games")
    digits = "".join(str(c + 1) for c in cols)
    assert Position.parse(pad + digits + pad).history == cols
    text = algebraic(cols, numbers, upper, sep)
    assert Position.parse(pad + text + pad).history == cols


@fuzz(fast=80)
@given(games(), st.integers(0, 42), st.integers(1, 7))
def test_an_illegal_move_is_named_by_its_number(cols, at, extra):
    """A move into a full column or after the end is refused at exactly that move."""
    count("moves: illegal move")
    prefix = cols[:at]
    pos = Position.from_moves([c + 1 for c in prefix])
    col = extra - 1
    if pos.can_play(col) and not pos.is_over:
        return  # a legal move: nothing to refuse
    text = "".join(str(c + 1) for c in prefix) + str(extra) + "4"
    res = _parse(text)
    assert isinstance(res, ValueError), text
    kind, n = check_error(res)
    assert (kind, n) == ("move", len(prefix) + 1), (text, str(res))
    square = f"{COLUMN_NAMES[col]}{min(pos.height(col) + 1, 6)}"
    alg = algebraic(prefix, False, False, " ") + " " + square
    res = _parse(alg)
    assert isinstance(res, ValueError), alg
    kind, n = check_error(res)
    assert (kind, n) == ("move", len(prefix) + 1), (alg, str(res))


# Text from the characters people (and pasted documents) put in move strings.
MOVE_CHARS = st.sampled_from(list("01234567890abcdefghABCDEFGH. ,;-\t\n\r\x00\ufeff\u00a0"
                                  "\u2028\u0661\uff14\u00bd\u00b2#\"'[]*/\\xyz"))
move_text = st.one_of(
    st.text(MOVE_CHARS, max_size=60),
    st.text(max_size=60),  # any unicode at all
    st.text(st.sampled_from("1234567 "), max_size=80),  # long digit strings: overfull columns
)


@fuzz(fast=150)
@given(move_text)
def test_any_text_parses_or_says_where(text):
    """Random text: a Position, or one line that says where; and the place is right."""
    count("moves: random text")
    res = _parse(text)
    if isinstance(res, Position):
        assert Position.parse(res.digits()).history == res.history
        assert Position.parse(res.algebraic()).history == res.history
        return
    kind, n = check_error(res)
    stripped = text.strip()
    if kind == "character":
        # the N-th character of the digit string (spaces removed when it has some)
        seen = stripped if all(ch in "1234567" for ch in stripped) else stripped.replace(" ", "")
        assert 1 <= n <= len(seen) and seen[n - 1] not in "1234567", (text, str(res))
        assert all(ch in "1234567" for ch in seen[: n - 1]), (text, str(res))
    elif not any(ch.isalpha() for ch in stripped):
        # a digit string with an illegal move: the moves before it are a game
        digits = stripped.replace(" ", "")
        Position.from_moves(digits[: n - 1])
        assert isinstance(_parse(digits[:n]), ValueError)


@fuzz(fast=40, long=2_000)
@given(st.integers(43, 100_000))
def test_huge_move_strings_fail_fast(n):
    """A huge digit string is refused at move 43 at the latest, quickly."""
    count("moves: huge")
    res = _parse("1234567" * (n // 7 + 1))
    assert isinstance(res, ValueError)
    kind, k = check_error(res)
    assert kind == "move" and k <= 43
