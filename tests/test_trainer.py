"""The puzzle trainer (key T): its flow through the screen, its schedule, its saved
progress, and a snapshot."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from c4tui.engine.board.position import Position
from pilot_util import screen_text, sync, until

from c4tui.app import C4App
from c4tui.app.controllers.trainer import Phase, TrainerControl
from c4tui.app.screens.trainer import TrainerScreen
from c4tui.puzzles.progress import AGAIN_AFTER, store_path

pytestmark = pytest.mark.usefixtures("tmp_home")

# five puzzles of the starter set (moves, keeping column 1-based, ...), easiest first
PUZZLES = """# c4tui puzzles 1
# moves keep result length decoys nodes difficulty theme
3355 4 win 2 0 0 1 double-threat
217752 4 win 2 0 0 1 double-threat
4322246375375534544 3 win 3 0 159 1 even-threat
521655526635356336263732 2 win 3 0 203 1 odd-threat
27614653426622626234455111471147775 5 win 3 0 9 1 zugzwang
"""
TODAY = date(2026, 11, 26)


@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "five.c4p"
    path.write_text(PUZZLES)
    return path


def control(path, store=None, today=TODAY) -> TrainerControl:
    return TrainerControl(path, store, today=lambda: today)


async def opened(pilot, app) -> None:
    await until(pilot, lambda: isinstance(app.screen, TrainerScreen)
                and "keep the" in screen_text(app), "the trainer's puzzle")


def info(app) -> str:
    return str(app.screen.query_one("#trainer-info").render())


@sync
async def test_right_move_solves_and_wrong_move_is_refuted_on_the_board(puzzle_file):
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        trainer = control(puzzle_file)
        app.push_screen(TrainerScreen(trainer))
        await opened(pilot, app)
        assert "White to move and keep the win" in screen_text(app)
        assert "streak 0" in screen_text(app)
        await pilot.press("4")  # d1: the double threat
        assert trainer.phase is Phase.SOLVED
        assert "Solved: d1 keeps the win (double-threat)" in screen_text(app)
        assert "streak 1" in screen_text(app)
        await pilot.press("n")
        assert trainer.puzzle is not None and trainer.puzzle.moves == "217752"
        board = app.screen.query_one("#trainer-board")
        await pilot.press("1")  # a wrong move: the engine replies on the board
        await until(pilot, lambda: trainer.phase is Phase.REFUTED, "the refutation", 60)
        assert board.position.history[:-2] == Position.from_moves("217752").history
        assert len(board.position.history) == 8  # the wrong move and the engine's reply
        text = info(app)  # (wrapped on the screen)
        assert "Wrong: Black replies" in text and "with perfect play (the win was d1)" in text
        assert "streak 0 (best 1)" in text


@sync
async def test_hints_name_the_theme_then_the_column(puzzle_file):
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(TrainerScreen(control(puzzle_file)))
        await opened(pilot, app)
        await pilot.press("h")
        assert "hint: theme: double-threat" in info(app)
        assert "column" not in info(app)
        await pilot.press("h")
        assert "hint: theme: double-threat; column 4" in info(app)
        # a click on the board plays too: column d is 4 cells past the border and the gutter
        await pilot.click("#trainer-board", offset=(2 + 2 + 3 * 4 + 1, 3))
        assert "Solved: d1 keeps the win (double-threat)" in info(app)
        assert "streak 1" in info(app)  # after two hints SM-2's quality is 3: still a pass
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TrainerScreen), "the board")


@sync
async def test_key_T_opens_the_starter_set_and_escape_leaves():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("T")
        await opened(pilot, app)
        assert "to move and keep the" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TrainerScreen), "the board")
        assert app.position.digits() == "4453"  # the analysis board is as it was


def test_a_missed_puzzle_comes_back_sooner_than_a_solved_one(puzzle_file, tmp_path):
    store = tmp_path / "progress.json"
    t = control(puzzle_file, store)
    solved = t.puzzle
    assert solved is not None
    t.play(solved.keep)  # right
    t.next()
    missed = t.puzzle
    assert missed is not None
    t.play((missed.keep + 1) % 7)  # wrong
    seen = []
    for _ in range(AGAIN_AFTER):
        t.next()
        assert t.puzzle is not None
        seen.append(t.puzzle.moves)
        t.play(t.puzzle.keep)
    t.next()  # the missed one is back today, the solved one is not
    assert t.puzzle == missed and solved.moves not in seen
    assert missed.moves not in seen  # ... after AGAIN_AFTER others
    t.play(missed.keep)
    t.next()
    assert t.puzzle is None and "come back tomorrow" in t.task()
    # tomorrow the solved one is due (SM-2: 1 day after the first repetition)
    later = control(puzzle_file, store, TODAY + timedelta(days=1))
    assert later.puzzle is not None


def test_restart_keeps_progress(puzzle_file):
    t = control(puzzle_file)  # the default store: the user data directory
    first = t.puzzle
    assert first is not None
    t.play(first.keep)
    assert t.streak == 1 and store_path().exists()
    again = control(puzzle_file)
    assert again.streak == 1 and again.progress.best == 1
    assert again.puzzle is not None and again.puzzle != first  # solved: not due today
    card = again.progress.entries[again.keys[0]].card
    assert (card.reps, card.interval, card.due) == (1, 1, TODAY + timedelta(days=1))


def test_an_unreadable_store_or_file_is_one_warning(tmp_path):
    store = tmp_path / "progress.json"
    store.write_text("{not json")
    t = control(tmp_path / "missing.c4p", store)
    notes = t.take_notes()
    assert any("missing.c4p" in n for n in notes)
    assert any("not the trainer's progress" in n for n in notes)
    assert t.phase is Phase.EMPTY and t.task() == "No puzzles"


def test_trainer_80x24(snap_compare, puzzle_file, tmp_path):
    app = C4App(Position(), engine=False)

    async def hinted(pilot) -> None:
        app.push_screen(TrainerScreen(control(puzzle_file, tmp_path / "p.json")))
        await opened(pilot, app)
        await pilot.press("h")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=hinted)


def _poisoned(store, keys, **card) -> None:
    """A store whose first puzzle's card has ``card``'s values (the others are sane),
    written as JSON text (so NaN and 1e999 stay what a hand-edited file holds)."""
    import json

    good = {"ease": 2.5, "reps": 1, "interval": 1, "due": "2026-11-27", "again": False,
            "last": "2026-11-26"}
    bad = json.dumps({**good, **{k: v for k, v in card.items() if not isinstance(v, str)
                                 or k in ("due", "last")}})
    for k, v in card.items():  # raw JSON tokens: NaN, Infinity, 1e999
        if isinstance(v, str) and k not in ("due", "last"):
            bad = bad.replace(f'"{k}": {json.dumps(good[k])}', f'"{k}": {v}')
    entries = [f'"{keys[0]}": {{"card": {bad}, "seq": 1}}',
               f'"{keys[1]}": {{"card": {json.dumps(good)}, "seq": 2}}']
    store.write_text('{"version": 1, "answers": 2, "streak": 2, "best": 2, "entries": {'
                     + ", ".join(entries) + "}}")


POISONS = [{"ease": 1e308}, {"interval": 10**9}, {"ease": "NaN"}, {"ease": "Infinity"},
           {"ease": "-Infinity"}, {"interval": "1e999"}, {"reps": "true"}, {"reps": 2.5},
           {"interval": -3}, {"due": "9999-12-31T00:00"}, {"last": 7}]


@pytest.mark.parametrize("poison", POISONS, ids=lambda p: "-".join(map(str, p.items())))
def test_a_card_out_of_range_is_reset_with_a_warning(puzzle_file, tmp_path, poison):
    """trainer.json is a file anyone can edit: a card with a number out of its range
    (``ease 1e308`` overflowed the next interval, ``interval 10**9`` the due date) is
    reset, its puzzle new again, with one warning; the others keep their cards."""
    store = tmp_path / "progress.json"
    keys = control(puzzle_file, tmp_path / "none.json").keys
    _poisoned(store, keys, **poison)
    t = control(puzzle_file, store)
    notes = t.take_notes()
    assert len(notes) == 1 and "1 puzzle card unusable" in notes[0], notes
    assert keys[0] not in t.progress.entries and keys[1] in t.progress.entries
    assert t.progress.answers == 2
    while t.puzzle is not None:  # every answer, the reset one's included, is stored
        t.play(t.puzzle.keep)
        assert not t.take_notes()
        t.next()
    assert store.exists() and control(puzzle_file, store).take_notes() == []


@pytest.mark.parametrize("counts", ['"answers": 1e999', '"streak": -1', '"best": NaN',
                                    '"answers": 1.5'])
def test_a_count_out_of_range_is_a_fresh_start_with_a_warning(puzzle_file, tmp_path, counts):
    store = tmp_path / "progress.json"
    store.write_text('{"version": 1, "answers": 2, "streak": 2, "best": 2, "entries": {}}'
                     .replace(f'"{counts.split(":")[0][1:-1]}": 2', counts))
    t = control(puzzle_file, store)
    assert any("not the trainer's progress, starting afresh" in n for n in t.take_notes())
    assert t.puzzle is not None and t.progress.answers == 0


def test_a_long_run_of_perfect_answers_keeps_its_dates():
    """SM-2's interval grows by the ease each time: capped at 100 years, so the due date
    stays a date (it overflowed after some twenty perfect answers)."""
    from c4tui.puzzles.sm2 import MAX_INTERVAL, PERFECT, Card, review

    card, day = Card(), TODAY
    for _ in range(40):  # each answered the day it is due
        card = review(card, PERFECT, day)
        assert card.due is not None and card.interval <= MAX_INTERVAL
        day = card.due
    assert card.interval == MAX_INTERVAL and card.due == day


@sync
async def test_key_T_with_a_poisoned_store_warns_and_trains(tmp_path):
    """The app: T with a trainer.json whose card has ``ease 1e308`` (an OverflowError
    on the first answer took the app down)."""
    keys = control(None, tmp_path / "none.json").keys  # the starter set
    store_path().parent.mkdir(parents=True, exist_ok=True)
    _poisoned(store_path(), keys, ease=1e308, interval=10**9)
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("T")
        await opened(pilot, app)
        await until(pilot, lambda: any("unusable" in n.message for n in app._notifications),
                    "the warning")
        trainer = app.screen.control
        assert trainer.puzzle is not None
        await pilot.press(str(trainer.puzzle.keep + 1))
        await until(pilot, lambda: "Solved" in screen_text(app), "the answer stored")
    assert app.return_code in (None, 0)
