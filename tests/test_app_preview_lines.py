"""The preview (``v``) never raises on a line that does not fit the viewed position.

Bug (issue 33's monkey fuzzer, 2026-12-05): ``v`` on a position Black had already won,
while the engine's view still held lines of the position before, raised
``IllegalMoveError: move 13 (f): the game is over`` from the preview's title and ended
the app. The controller is driven directly with a fake bridge: no engine is needed.
"""

from __future__ import annotations

from typing import Any

from c4tui.engine.board.position import Position

from c4tui.app.controllers.preview import Preview, PreviewControl
from c4tui.app.session.model import GameModel


class _View:
    def __init__(self, line: tuple[int, ...]) -> None:
        self._line = line

    def line(self, col: int) -> tuple[int, ...]:
        return self._line


class _Bridge:
    def __init__(self, line: tuple[int, ...]) -> None:
        self._view = _View(line)

    def view(self, pos: Position) -> _View:
        return self._view


class _Host:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        self.errors.append(text)


def _control(moves: str, line: tuple[int, ...]) -> tuple[PreviewControl, _Host, list[Any]]:
    host, drawn = _Host(), []
    ctl = PreviewControl(GameModel(Position.from_moves(moves)), _Bridge(line),  # type: ignore[arg-type]
                         host, lambda: True, drawn.append)  # type: ignore[arg-type]
    return ctl, host, drawn


def test_v_on_a_finished_game_says_so_whatever_lines_the_view_still_holds() -> None:
    ctl, host, drawn = _control("4455667", (5, 5))  # White has won; a stale line for f
    ctl.line(5)
    assert host.errors == ["preview: the game is over"]
    assert ctl.current is None and not drawn


def test_a_line_that_does_not_fit_the_position_is_refused_not_raised() -> None:
    ctl, host, drawn = _control("111111", (0, 1))  # column a is full: the line is stale
    ctl.line(0)
    assert host.errors == ["preview: that line is not of this position"]
    assert ctl.current is None and drawn == [None]


def test_a_line_that_fits_is_previewed_with_its_title() -> None:
    ctl, host, drawn = _control("44", (3, 2))
    ctl.line(3)
    assert not host.errors
    assert isinstance(ctl.current, Preview) and ctl.current.moves == (3,)
    assert ctl.current.title().startswith("preview col d: ")
