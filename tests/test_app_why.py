"""The app's key ``w`` (issue 35): Allis's rules as a checked certificate in the threat
panel, their squares lettered on the board, ``W`` stepping through the rules' refuted
groups. The real explainer (pure Python, milliseconds) and a made-up engine view (the
engine is not the subject)."""

from __future__ import annotations

import re
import threading

import pytest
from c4tui.engine.board.geometry import HEIGHT, WIDTH
from c4tui.engine.board.position import Position, parse_square
from c4tui.engine.explain import explain
from pilot_util import fake_view, panel_text, sync, until

from c4tui.app import C4App
from c4tui.app.widgets import BoardView
from c4tui.app.widgets.threat_panel import claim_contradicts, rule_letter

pytestmark = pytest.mark.usefixtures("tmp_home")

SIZES = [(80, 24), (120, 40)]


def _board_cells(app: C4App) -> dict[tuple[int, int], str]:
    """(col, row) -> what the board shows on that square (as drawn, not mirrored)."""
    board = app.query_one(BoardView)
    cw = board.cell_w
    out = {}
    gutter = len(str(HEIGHT)) + 1
    for line in str(board.render()).splitlines():
        m = re.match(r"\s*(\d+) ", line)
        if not m or len(line) < gutter + WIDTH * cw - 1 or not 1 <= int(m.group(1)) <= HEIGHT \
                or (0, int(m.group(1)) - 1) in out:  # (the column numbers' line: "1 2 ...")
            continue
        for i in range(WIDTH):
            out[(i, int(m.group(1)) - 1)] = line[gutter + i * cw: gutter + (i + 1) * cw].strip()
    return out


def _leaf_rules(moves: str):
    cert = explain(Position.from_moves(moves))
    leaf = cert.proof
    while leaf.children:
        leaf = leaf.children[0]
    return leaf.rules


def _panel(app: C4App) -> str:
    return panel_text(app, "threats")


async def _why(pilot, app: C4App, says: str) -> None:
    await pilot.press("w")
    await until(pilot, lambda: says in _panel(app), f"the why view saying {says!r}", 5)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_w_shows_the_claimevens_and_marks_their_squares(size):
    app = C4App(Position.from_moves("34444445"), engine=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert not app.query_one("#threat-info").display  # off until asked
        await _why(pilot, app, "why: Black at least draws (checked)")
        panel = _panel(app)
        rules = _leaf_rules("34444445")
        assert rules and all(u.rule == "claimeven" for u in rules)
        first = rules[0]
        assert f"A claimeven {first.squares[0]} {first.squares[1]}: answers on top" in panel
        assert "no proof" not in panel
        cells = _board_cells(app)
        squares = {parse_square(sq): rule_letter(i) for i, u in enumerate(rules)
                   for sq in u.squares}
        assert {k: cells[k] for k in squares} == squares  # each rule's letter on its squares
        pos = app.position
        others = [v for (c, r), v in cells.items() if (c, r) not in squares
                  and pos.cell(c, r) is None]
        assert set(others) <= {"·", "◌"}  # nothing else marked
        await pilot.press("w")  # off: the marks go, the panel with them
        await until(pilot, lambda: not app.query_one("#threat-info").display, "the view off")
        assert not set(_board_cells(app).values()) & set(squares.values())


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_W_steps_through_the_rules_refuted_groups(size):
    app = C4App(Position.from_moves("34444445"), engine=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await _why(pilot, app, "Black at least draws")
        rules = _leaf_rules("34444445")
        assert "refutes" not in _panel(app)
        for i in (0, 1, 2):
            await pilot.press("W")
            use = rules[i]
            want = (f"{rule_letter(i)} claimeven {' '.join(use.squares)} refutes "
                    + ", ".join(use.refutes))
            await until(pilot, lambda want=want: want in _panel(app), f"rule {i}'s groups")
        for _ in range(len(rules) - 3):  # to the last rule, then past it
            await pilot.press("W")
        last = f"{rule_letter(len(rules) - 1)} claimeven {' '.join(rules[-1].squares)} refutes"
        await until(pilot, lambda: last in _panel(app), "the last rule's groups")
        await pilot.press("W")
        await until(pilot, lambda: "refutes" not in _panel(app), "past the last: none")


@sync
async def test_no_proof_within_one_second():
    app = C4App(Position.from_moves("4"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await until(pilot, lambda: "why: no proof within 1 s" in _panel(app), "no proof", 10)
        assert "at least draws" not in _panel(app) and "wins" not in _panel(app)
        cells = _board_cells(app)
        assert not any(v.isalpha() for v in cells.values())


@sync
async def test_a_stale_result_is_not_shown_after_a_move():
    """The explanation of 34444445 is held until the move 1 is played: it finishes then,
    while the new position's is held in its turn, and must not show on the new
    position."""
    app = C4App(Position.from_moves("34444445"), engine=False)
    old, new = "34444445", "344444451"
    release = {old: threading.Event(), new: threading.Event()}
    held = {old: threading.Event(), new: threading.Event()}
    seen: list[str] = []
    real = app.why._find

    def slow(pos, side, budget):
        seen.append(pos.digits())
        held[pos.digits()].set()
        release[pos.digits()].wait(10)
        return real(pos, side, budget)

    app.why._find = slow
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await until(pilot, held[old].is_set, "the first explanation to start")
        await until(pilot, lambda: "why: finding the rules…" in _panel(app),
                    "the panel while it is found (the UI does not wait for it)")
        await pilot.press("1")
        await until(pilot, lambda: app.position.digits() == new, "the move")
        release[old].set()  # the old one ends; the new one starts and is held
        await until(pilot, held[new].is_set, "the new position's explanation")
        await pilot.pause()  # (a redraw the old result asked for would be drawn now)
        assert "why: finding the rules…" in _panel(app)
        assert "claimeven" not in _panel(app)  # the old position's rules: not shown
        assert not any(v.isalpha() for v in _board_cells(app).values())
        release[new].set()
        await until(pilot, lambda: "tree of 1; first: c2" in _panel(app), "the new result", 5)
        assert seen == [old, new]
        rules = _leaf_rules(new)
        assert f"A claimeven {' '.join(rules[0].squares)}" in _panel(app)


@sync
async def test_a_certificate_against_the_exact_value_is_not_shown():
    """A disagreement is a bug: neither claim is shown, it is said."""
    from c4tui.engine.seam import Band, Score

    from c4tui.app.bridge.engine_view import ExactEntry, ExactStatus

    pos = Position.from_moves("34444445")  # White to move; Black at least draws, truly
    app = C4App(pos, engine=False)
    wins = Score(10, Band.EXACT)  # made up: White (to move) wins
    scores = tuple(10 if pos.can_play(c) else None for c in range(WIDTH))
    fake_view(app, exact=ExactEntry(ExactStatus.DONE, scores))
    assert app.bridge.view(pos).proven == wins
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _why(pilot, app, "the rules and the exact value disagree (a bug)")
        assert "at least draws" not in _panel(app)
        assert "disagree" in app.last_warning
        assert not any(v.isalpha() for v in _board_cells(app).values())


@sync
async def test_w_is_in_the_keys_and_needs_the_hints():
    app = C4App(Position.from_moves("34444445"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = {b.binding.key: b.binding.description
                for b in app.screen.active_bindings.values()}
        assert "why" in keys["w"] and "rule" in keys["W"]  # the ? panel lists them
        await pilot.press("h")  # hints hidden: no result shown
        await pilot.pause()
        await pilot.press("w")
        await until(pilot, lambda: "hints are hidden" in app.last_error, "the refusal")
        assert not app.query_one("#threat-info").display


@pytest.mark.parametrize("proves, to_move, sign, against", [
    ("Black at least draws", 0, 1, True),  # White to move wins
    ("Black at least draws", 0, 0, False),
    ("Black at least draws", 1, -1, True),  # Black to move loses
    ("Black at least draws", 1, 1, False),
    ("Black wins", 0, 0, True),
    ("Black wins", 0, -1, False),
    ("White wins", 1, -1, False),
    ("White wins", 1, 0, True),
    ("White at least draws", 0, -1, True),
    ("White at least draws", 1, 1, True),  # Black to move wins
    ("white at least draws", 1, 0, False),
])
def test_which_results_contradict_a_claim(proves, to_move, sign, against):
    pos = Position.from_moves("4" if to_move else "")
    assert claim_contradicts(proves, pos, sign) is against
