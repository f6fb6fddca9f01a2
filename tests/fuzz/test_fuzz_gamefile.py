"""Fuzzing the game files (c4tui/gamefile/): random bytes, huge, truncated, CRLF, BOM,
other encodings, an illegal move in the middle, odd headers and odd file names, games with
variations and comments, and their brackets broken.

Wanted: a Game, or a :class:`GameFileError` with one line that names the file (and the
line, for a problem inside it); nothing else escapes; a failed save changes nothing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position
from fuzzkit import count, fuzz
from hypothesis import assume, given
from hypothesis import strategies as st
from test_fuzz_moves import algebraic, games

from c4tui import gamefile
from c4tui.gamefile import Game, GameFileError, format_game, load_game, parse_game, save_game
from c4tui.gamefile.tree import Node, clean_comment

HEADER_NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True)
#: Comment text: anything but "}" (the model refuses it), cleaned as the model does.
COMMENTS = st.text(st.characters(exclude_characters="}", exclude_categories=("Cs",)),
                   max_size=40).map(clean_comment)


def one_line(exc: Exception, name: str | None = None) -> str:
    """The error is a GameFileError of one short line that starts with the file's name."""
    assert isinstance(exc, GameFileError), repr(exc)
    msg = str(exc)
    assert msg and "\n" not in msg and "\r" not in msg, msg
    if name is not None:
        assert msg.startswith(name + ":"), (name, msg)
    return msg


def load(path: Path) -> Game | Exception:
    try:
        return load_game(path)
    except ValueError as exc:  # anything else escapes and fails the test
        return exc


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-games")


def write(files: Path, data: bytes) -> Path:
    p = files / "g.c4g"
    p.write_bytes(data)
    return p


@st.composite
def trees(draw: st.DrawFn) -> Node:
    """A legal game tree: a game, then a few branches of new moves from random nodes
    (variations, or a line made longer), some of them commented."""
    tree = Node.from_moves(draw(games()))
    for _ in range(draw(st.integers(0, 6))):
        path: tuple[int, ...] = ()
        pos = Position()
        while tree.at(path).children and draw(st.booleans()):
            i = draw(st.integers(0, len(tree.at(path).children) - 1))
            path += (i,)
            pos.play(tree.at(path).col)
        for _ in range(draw(st.integers(0, 4))):
            if pos.is_over:
                break
            col = draw(st.sampled_from(pos.legal_moves()))
            pos.play(col)
            tree, path = tree.add(path, col)
        if draw(st.booleans()):
            tree = tree.with_comment(path, draw(COMMENTS))
    return tree


@st.composite
def saved_games(draw: st.DrawFn) -> Game:
    """A game (variations and comments too) with random headers (any text as values)."""
    headers = draw(st.dictionaries(HEADER_NAME, st.text(max_size=30), max_size=5))
    headers.pop("Result", None)  # format_game writes the true result
    return Game.from_tree(draw(trees()), headers)


def _same_headers(written: dict[str, str], read: dict[str, str]) -> None:
    for k, v in written.items():
        # line breaks and NUL become spaces (a header is one line of text), the rest is kept
        assert read[k] == re.sub("[\x00\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", " ", v), (k, v)


@fuzz(fast=40, long=3_000)
@given(saved_games())
def test_save_then_load_is_the_same_game(tmp_path_factory, game):
    """Any game with any header values comes back from its file (ours is readable)."""
    count("gamefile: save/load round trip")
    d = tmp_path_factory.mktemp("rt")
    path = save_game(d / "g.c4g", game)
    back = load_game(path)
    assert back.position.history == game.position.history and back.tree == game.tree
    _same_headers(game.headers, back.headers)
    assert format_game(back) == path.read_text()  # saved again: the same bytes


@fuzz(fast=40)
@given(saved_games(), st.sampled_from(["crlf", "cr", "bom", "bom+crlf", "trailing"]))
def test_line_ends_and_bom_read_the_same(files, game, variant):
    """CRLF, old Mac CR, a UTF-8 BOM, trailing blank lines: the same game."""
    count("gamefile: CRLF/BOM")
    text = format_game(game)
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    if variant == "cr":
        text = text.replace("\n", "\r")
    if variant == "trailing":
        text += "\n\n   \n"
    data = text.encode("utf-8")
    if variant.startswith("bom"):
        data = b"\xef\xbb\xbf" + data
    back = load(write(files, data))
    assert isinstance(back, Game), back
    assert back.position.history == game.position.history and back.tree == game.tree
    _same_headers(game.headers, back.headers)


@fuzz(fast=60)
@given(saved_games(), st.data())
def test_truncated_files_give_a_prefix_or_one_line(files, game, data):
    """A file cut anywhere: a prefix of the game, or one line naming the file."""
    count("gamefile: truncated")
    raw = format_game(game).encode("utf-8")
    cut = data.draw(st.integers(0, len(raw)))
    p = write(files, raw[:cut])
    back = load(p)
    if isinstance(back, Game):
        h = back.position.history
        _, _, moves = raw[:cut].decode("utf-8", "ignore").partition("\n\n")
        if not any(ch.isalpha() for ch in re.sub(r"\{[^}]*\}", "", moves)):
            return  # cut inside "1." of "1. d1": "1" is a move in the digit notation
        assert h == game.position.history[: len(h)]  # the main line comes first
    else:
        one_line(back, str(p))


@fuzz(fast=80)
@given(saved_games(), st.data())
def test_a_broken_bracket_names_its_line_and_column(files, game, data):
    """A bracket ( ) { } added to or taken from a game's move text: a game, or one line
    whose line and column point at a bracket of the file (the one that does not fit)."""
    count("gamefile: broken brackets")
    text = format_game(game)
    start = text.index("\n\n") + 2
    at = data.draw(st.integers(start, len(text) - 1))
    if data.draw(st.booleans()) and text[at] in "(){}":
        text = text[:at] + text[at + 1:]  # one taken away
    else:
        text = text[:at] + data.draw(st.sampled_from("(){}")) + text[at:]
    p = write(files, text.encode())
    back = load(p)
    if isinstance(back, Game):
        return
    msg = one_line(back, str(p))
    m = re.search(r": line (\d+), column (\d+): ", msg)
    if m:
        line = text.splitlines()[int(m.group(1)) - 1]
        assert line[int(m.group(2)) - 1] in "(){}", (msg, line)


@fuzz(fast=60)
@given(games(), st.data())
def test_an_illegal_move_in_the_middle_names_its_line(files, cols, data):
    """Move k replaced by an impossible square: the error gives the right line and move."""
    count("gamefile: illegal move inside")
    assume(len(cols) >= 1)
    k = data.draw(st.integers(1, len(cols)))
    per_line = data.draw(st.integers(1, 8))
    squares = algebraic(cols, False, False, " ").split()
    pos = Position.from_moves([c + 1 for c in cols[: k - 1]])
    bad = data.draw(st.sampled_from(["z9", "d0", "h1", "4x", "d10"]
                                    + [f"{'abcdefg'[c]}{pos.height(c) + 2}" for c in range(7)
                                       if pos.height(c) < 5]))
    squares[k - 1] = bad
    head = ['# c4tui game file', '[Event "fuzz"]', ""]
    body = [" ".join(squares[i:i + per_line]) for i in range(0, len(squares), per_line)]
    p = write(files, "\n".join(head + body + ["*"]).encode())
    back = load(p)
    msg = one_line(back, str(p))
    line = len(head) + (k - 1) // per_line + 1
    assert f": line {line}: move {k} " in msg, msg


@fuzz(fast=80)
@given(st.binary(max_size=600))
def test_random_bytes(files, blob):
    """Random bytes: a game (rarely) or one line naming the file."""
    count("gamefile: random bytes")
    p = write(files, blob)
    back = load(p)
    if not isinstance(back, Game):
        one_line(back, str(p))


# Bytes that look like a game file, mutated: the parser's paths, not only its first check.
_PIECES = [b"[Event \"x\"]\n", b"[Result \"1-0\"]\n", b"[Bad header]\n", b"# c\n", b"; c\n",
           b"1. ", b"d1 ", b"d2 ", b"e1 ", b"4453", b"1-0", b"0-1", b"1/2-1/2", b" * ",
           b"\r\n", b"\n", b"\xef\xbb\xbf", b"\xff", b"\xc3\xa9", b"\\\"", b"\"", b"[", b"]",
           b"\t", b",", b"8", b"a7", b"H1", b"(", b")", b"{", b"}", b"{c} ", b"(e1 ", b"2... "]


@fuzz(fast=120)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_game_like_bytes(files, pieces):
    """Pieces of game files in random order: a game or one line naming file and line."""
    count("gamefile: game-like bytes")
    p = write(files, b"".join(pieces))
    back = load(p)
    if not isinstance(back, Game):
        one_line(back, str(p))


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@fuzz(fast=30, long=2_000)
@given(saved_games(), st.sampled_from(["utf-16", "utf-32", "latin-1", "cp1252", "utf-16-le"]),
       st.text(st.characters(min_codepoint=0xA1, max_codepoint=0xFF), min_size=1, max_size=5))
def test_other_encodings_are_named(files, game, encoding, accents):
    """UTF-16/32 files say binary data; Latin-1 with accents says which byte is not UTF-8."""
    count("gamefile: encodings")
    # the main line alone: a comment (any Unicode) may have no Latin-1 form
    game = Game(game.position, {"Event": "Caf" + accents})
    text = format_game(game)
    data = text.encode(encoding)
    p = write(files, data)
    back = load(p)
    if not encoding.startswith("utf") and _is_utf8(data):
        return  # Latin-1 "Â¡" is the UTF-8 of "¡": a valid file, if not the one meant
    msg = one_line(back, str(p))
    if encoding.startswith("utf"):
        assert "binary data" in msg, msg
    else:
        m = re.search(r"not UTF-8 text \(byte (\d+)\)", msg)
        assert m and data[int(m.group(1))] >= 0x80, msg


@fuzz(fast=6, long=100)
@given(st.integers(-10, 4096), st.sampled_from([b" ", b"4", b"# comment\n"]))
def test_huge_files(files, extra, filler):
    """Around the 1 MiB cap: over it is refused by size at once, under it still reads."""
    count("gamefile: huge")
    size = gamefile.MAX_FILE_BYTES + extra
    body = b"4453\n" + filler * ((size - 5) // len(filler) + 1)
    p = write(files, body[:size])
    back = load(p)
    if size > gamefile.MAX_FILE_BYTES:
        assert "too large for a game file" in one_line(back, str(p))
    elif filler == b"4":
        one_line(back, str(p))  # a million moves: refused at the first impossible one
    else:
        assert isinstance(back, Game) and back.position.digits() == "4453", back


NAME_CHARS = st.sampled_from(list("ab./~-_ \x00\n\t\\é😀") + ["..", "~nobody", "x" * 300])


@fuzz(fast=60)
@given(st.lists(NAME_CHARS, min_size=1, max_size=8).map("".join))
def test_odd_file_names(tmp_path_factory, text):
    """Names typed at the open and save prompts: one line each, never an exception."""
    count("gamefile: file names")
    d = tmp_path_factory.mktemp("names")
    with pytest.MonkeyPatch.context() as mp:  # ~ and the data directory inside d
        mp.setenv("HOME", str(d / "home"))
        mp.setenv("XDG_DATA_HOME", str(d / "xdg"))
        path = gamefile.resolve_user_path(text)  # never raises
        back = load(path)
        if not isinstance(back, Game):
            one_line(back)
        if "\0" in str(path) or not os.path.abspath(path).startswith(str(d) + os.sep):
            return  # an absolute name, or .. out of the sandbox: not saved here
        try:
            written = save_game(path, Position.parse("4453"))
        except GameFileError as exc:
            one_line(exc)
        else:
            assert load_game(written).position.digits() == "4453"


@fuzz(fast=30)
@given(saved_games(), saved_games())
def test_a_refused_save_changes_nothing(tmp_path_factory, old, new):
    """Saving over an existing file without overwrite keeps the old file byte for byte."""
    count("gamefile: save refused")
    d = tmp_path_factory.mktemp("keep")
    p = save_game(d / "g.c4g", old)
    before = p.read_bytes()
    with pytest.raises(gamefile.GameFileExistsError) as info:
        save_game(p, new)
    one_line(info.value, str(p))
    assert p.read_bytes() == before
    assert sorted(os.listdir(d)) == ["g.c4g"]  # no temporary file left behind
    parse_game(before.decode())
