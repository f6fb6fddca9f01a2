"""Fuzzing the stores another tool (or a hand) may have changed (issue 33): the games
database's rows and the trainer's ``trainer.json``.

Wanted: hostile values (any SQLite type, out-of-range numbers, NaN and 1e308, escape
sequences, bidi controls, huge text) never raise out of ``db search``/``db explore``/
``db stats`` nor out of the trainer's store; what is printed holds no control character
(a row's text passes ``bounded.shown``); an unusable card is reset with a one-line
warning and every card read back can be answered and saved. ``make test`` tries a few
dozen deterministic cases per surface; ``make fuzz`` (C4TUI_FUZZ_LONG=1) at least 10,000.
"""

from __future__ import annotations

import json
import math
import sqlite3
from datetime import date

import pytest
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st

from c4tui.cli import main
from c4tui.db import connect, import_paths
from c4tui.puzzles.progress import load_progress, save_progress
from c4tui.puzzles.sm2 import answer

#: Text a terminal would act on: escape sequences, C0/C1 controls, bidi overrides.
ESCAPES = ["\x1b[2J", "\x1b]0;owned\x07", "\x1b[31m", "\x9b6n", "\u202e", "\u2066", "\r",
           "\x00", "\x08", "\n[Event \"x\"]"]
hostile_text = st.one_of(
    st.sampled_from(ESCAPES),
    st.lists(st.one_of(st.sampled_from(ESCAPES), st.text(max_size=8)), max_size=6)
    .map("".join),
    st.integers(1, 3000).map(lambda n: "\x1b[1m" * n),
)
hostile_value = st.one_of(
    hostile_text,
    st.integers(-2**63, 2**63 - 1),
    st.sampled_from([0, 1, 2, 3, 4, -1, 7, 99, 2**62, -2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.binary(max_size=40),
)  # (no NULL: every column is NOT NULL, as SQLite would refuse it)
CONTROL = {chr(c) for c in range(32) if chr(c) != "\n"} | {chr(c) for c in range(127, 160)} | {
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}

LINES = "4545454\n4453\n4435\n453\n"


@pytest.fixture(scope="module")
def clean_db(tmp_path_factory):
    """A games database made by an import (copied by each case, then poisoned)."""
    where = tmp_path_factory.mktemp("fuzzdb")
    games = where / "games.txt"
    games.write_text(LINES)
    conn = connect(where / "clean.sqlite", create=True)
    import_paths(conn, [games])
    conn.close()
    return where / "clean.sqlite"


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


@fuzz(fast=20)
@given(game=st.fixed_dictionaries({
    "moves": hostile_value, "result": hostile_value, "headers": st.one_of(
        hostile_value, st.dictionaries(hostile_text, hostile_text, max_size=3).map(json.dumps),
        st.dictionaries(st.sampled_from(["White", "Black"]), hostile_text, min_size=1)
        .map(lambda d: json.dumps(d, ensure_ascii=False))),
    "source": hostile_value}),
    move=st.fixed_dictionaries({"move": hostile_value, "games": hostile_value,
                                "white": hostile_value, "draws": hostile_value,
                                "black": hostile_value}))
def test_hostile_rows_in_the_games_database(tmp_path_factory, clean_db, capsys, game, move):
    """A game row and a ``moves`` row of any values, through the empty board: the
    commands print (escaped) or say one line; never a traceback."""
    db = tmp_path_factory.mktemp("case") / "g.sqlite"
    db.write_bytes(clean_db.read_bytes())
    with sqlite3.connect(db) as c:
        c.execute("INSERT INTO games(id, digest, moves, result, headers, source) VALUES "
                  "(1000, x'00', ?, ?, ?, ?)",
                  (game["moves"], game["result"], game["headers"], game["source"]))
        c.execute("INSERT INTO positions(key, game) VALUES (0, 1000)")  # the empty board
        c.execute("INSERT OR REPLACE INTO moves(key, move, games, white, draws, black) "
                  "VALUES (0, :move, :games, :white, :draws, :black)", move)
        c.execute("PRAGMA journal_mode=DELETE")
    c.close()
    for argv in (["db", "search"], ["db", "search", "--json"], ["db", "explore", "--no-exact"],
                 ["db", "explore", "--json", "--no-exact"], ["db", "stats"]):
        count("stores: database rows")
        code, out, err = _run([*argv, "--db", str(db)], capsys)
        assert code in (0, 1, 2), (argv, code, err)
        assert "Traceback" not in err and err.count("\n") <= 1, (argv, err)
        assert not CONTROL & set(out + err), (argv, out[:300], err)
        if "--json" in argv:
            for line in out.splitlines():
                json.loads(line)


def _card_values():
    number = st.one_of(
        st.integers(-10, 40), st.integers(-2**70, 2**70), st.sampled_from([1e308, -0.0, 10**9]),
        st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
        hostile_text, st.lists(st.integers(), max_size=2))
    day = st.one_of(st.dates().map(date.isoformat), hostile_text, st.none(), number,
                    st.sampled_from(["9999-12-31", "0001-01-01", "2026-02-30"]))
    return st.fixed_dictionaries({"ease": number, "reps": number, "interval": number,
                                  "due": day, "again": st.one_of(st.booleans(), number),
                                  "last": day})


@fuzz(fast=60)
@given(cards=st.dictionaries(st.one_of(st.integers(0, 2**130).map(str), hostile_text),
                             st.one_of(st.fixed_dictionaries({"card": _card_values(),
                                                              "seq": _card_values().map(
                                                                  lambda d: d["reps"])}),
                                       st.just([]), st.none()), max_size=4),
       counts=st.lists(st.one_of(st.integers(0, 100), st.sampled_from([1e999, -1, "7", None])),
                       min_size=3, max_size=3))
def test_hostile_trainer_store(tmp_path_factory, cards, counts):
    """Any trainer.json of cards of any values: read without raising (a fresh start or
    a reset card comes with a one-line warning naming the file, no control character),
    every card kept can be answered with every grade, and saved and read back the same."""
    count("stores: trainer.json")
    store = tmp_path_factory.mktemp("trainer") / "trainer.json"
    data = {"version": 1, "answers": counts[0], "streak": counts[1], "best": counts[2],
            "entries": cards}
    store.write_text(json.dumps(data, allow_nan=True, ensure_ascii=False, default=str))
    progress = load_progress(store)
    if progress.warning is not None:
        assert progress.warning.startswith(f"trainer: {store}: ")
        assert "\n" not in progress.warning and not CONTROL & set(progress.warning)
    today = date(2026, 12, 5)
    for entry in progress.entries.values():
        card = entry.card
        assert math.isfinite(card.ease) and 0 <= card.interval <= 36_500
        for quality in range(6):
            answer(card, quality, today)  # no OverflowError, no ValueError
        progress.record(next(iter(progress.entries)), 5, today)
        break
    progress.pick([], [], today)
    assert save_progress(progress, store) is None
    again = load_progress(store)
    assert again.warning is None and again.entries == progress.entries
