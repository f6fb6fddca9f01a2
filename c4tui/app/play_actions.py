"""Play mode: the engine answers the user's moves (``p``), and the hints can hide (``h``).

The engine moves whenever the last position of the game is viewed, the game is not over
and its side is to move: after the user's move, when play mode starts on its turn, after
a load. Browsing the game, taking back, loading or leaving play mode cancels the move it
is looking for (:class:`EnginePlayer` drops the answer). Take-back (``backspace``, and
``u`` in play mode) removes the engine's reply and the user's move together, so the user
is to move again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.engine.position import PLAYER_NAMES, IllegalMoveError, Position
from c4tui.units import PERFECT

from .engine_view import EngineState
from .messages import EngineMoved
from .play import PlaySettings, Reply
from .text import game_over_text, human_count, human_time, move_name, square
from .widgets import BoardView, PlaySetupScreen
from .widgets.play_setup import PlayChoice

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


class PlayActions(_Base):
    """Mixed into :class:`C4App`: ``play`` (None: analysis, not play mode), ``hints``."""

    def init_play(self, play: PlaySettings | None, hints: bool) -> None:
        """Start in play mode (``play``), with the hints shown or not."""
        self.play = play
        self.hints = hints
        self._play_last: Reply | None = None  # the engine's last move, for the status line
        self._play_announced: int | None = None  # the finished game last announced
        # what the dialog proposes next time: the last choice
        self._play_strength = PERFECT if play is None or play.nodes is None \
            else str(play.nodes)
        self._play_vary = play is not None and play.vary

    # ------------------------------------------------------------------ keys
    def action_play_mode(self) -> None:
        """``p``: the dialog (engine's side and strength), or leave play mode."""
        if self.play is not None:
            self.leave_play()
            return
        if self.bridge.state in (EngineState.NOT_AVAILABLE, EngineState.FAILED):
            self.error(f"play: {self.bridge.why_no_engine()}: no engine to play against")
            return

        def done(choice: PlayChoice | None) -> None:
            if choice is not None:
                self.start_play(*choice)

        # the engine proposes to take the side not to move: the user moves first
        self.push_screen(PlaySetupScreen(1 - self.position.to_move, self._play_strength,
                                         self._play_vary), done)

    def action_toggle_hints(self) -> None:
        """``h``: show or hide what the engine thinks of the position."""
        self.hints = not self.hints
        self.say("hints shown" if self.hints else "hints hidden: h shows them")
        self.show()

    # ------------------------------------------------------------------ the mode
    def start_play(self, settings: PlaySettings, hide_hints: bool = True) -> None:
        """Enter play mode; if the engine is to move, it starts thinking."""
        self.play = settings
        self.hints = not hide_hints
        self._play_last = None
        self._play_announced = None
        self._play_strength = PERFECT if settings.nodes is None else str(settings.nodes)
        self._play_vary = settings.vary
        you = PLAYER_NAMES[1 - settings.side]
        self.say(f"play: you are {you}, the engine plays {settings.label}; p leaves")
        self.show(moved=True)

    def leave_play(self) -> None:
        """Back to analysis: the engine stops looking for a move; the hints show."""
        self.bridge.player.cancel()
        self.play = None
        self.hints = True
        self.say("play mode off")
        self.show(moved=True)  # the viewed position is analysed again

    def engine_to_move(self) -> bool:
        """Play mode, the end of the game is viewed, and it is the engine's turn."""
        pos = self.position
        return (self.play is not None and self.model.ply == len(self.model.line)
                and not pos.is_over and pos.to_move == self.play.side)

    def play_position_changed(self) -> bool:
        """The viewed position changed (from :meth:`C4App.show`): the engine starts or
        stops thinking, a finished game is announced. True: the engine is thinking here
        (so the panels' analysis of it is not wanted)."""
        if self.play is None:
            return False
        pos = self.position
        player = self.bridge.player
        if self.engine_to_move():
            if not player.thinking(pos):
                player.think(pos, self.play)
            return True
        player.cancel()
        if pos.is_over and self.model.ply == len(self.model.line) \
                and self._play_announced != pos.key():
            self._play_announced = pos.key()
            self.say(f"game over: {self._result(pos)}")
        return False

    def play_refuses(self) -> bool:
        """A move of the user in play mode that is not theirs to make: say why, True."""
        if self.play is None or self.position.is_over:
            return False  # a finished game says so itself
        if self.bridge.player.thinking():
            self.error("play: the engine is thinking (backspace takes your move back)")
            return True
        if self.position.to_move == self.play.side:
            self.error(f"play: {PLAYER_NAMES[self.play.side]} is the engine's side "
                       "(p leaves play mode)")
            return True
        return False

    def play_take_back(self) -> None:
        """Take back the user's last move and the engine's reply to it (if it came)."""
        assert self.play is not None
        user = 1 - self.play.side
        line = self.model.line
        # the mover of ply i is i % 2 (games start from the empty board)
        mine = [i for i in range(len(line)) if i % 2 == user]
        if not mine:
            self.error("take back: you have not moved yet")
            return
        self.bridge.player.cancel()
        n = len(line) - mine[-1]
        try:
            self.model.cut(mine[-1])  # the user's move and what follows it, in one edit
        except IllegalMoveError as exc:  # cannot happen: the line had the moves
            self.error(str(exc))
        self.model.goto(mine[-1])
        self._play_last = None
        self.say("took back your move" + (" and the engine's reply" if n > 1 else ""))
        self.show(moved=True)

    def on_engine_moved(self, event: EngineMoved) -> None:
        """The engine's answer: play it if it still answers the game's position."""
        reply = event.reply
        if self.play is None or not self.bridge.player.current(reply) \
                or not self.engine_to_move() or self.position.key() != reply.key:
            return
        if reply.col is None:
            self.error(f"play: the engine failed: {reply.error}")
            return
        self._play_last = reply
        self.model.play(reply.col)
        self._main(BoardView).cursor = reply.col
        self.show(moved=True)

    # ------------------------------------------------------------------ words
    def _result(self, pos: Position) -> str:
        assert self.play is not None
        over = game_over_text(pos) or ""
        if pos.winner is None:
            return over
        return f"{over}: {'the engine wins' if pos.winner == self.play.side else 'you win'}"

    def play_status(self) -> str:
        """The status line's play part ("" outside play mode)."""
        if self.play is None:
            return ""
        pos = self.position
        at_end = self.model.ply == len(self.model.line)
        hints = "" if self.hints else " · hints off (h)"
        engine = f"engine {self.play.strength}"  # (its side: not "your move")
        if at_end and pos.is_over:
            return f"game over: {self._result(pos)}"
        if self.bridge.player.thinking(pos):
            waiting = "" if self.bridge.state is EngineState.READY \
                else f" (waiting: {self.bridge.state.value})"
            # (the engine's name and strength stay off: 80 columns hold the rest)
            return f"engine thinking… {human_time(self.bridge.player.elapsed())}{waiting}" \
                f"{hints}"
        if not at_end:
            where = move_name(pos, pos.ply - 1) if pos.ply else "the start"
            return f"viewing {where}: end returns{hints}"
        last = ""
        reply = self._play_last
        if reply is not None and pos.history and pos.history[-1] == reply.col \
                and reply.col is not None:
            spent = f"{human_count(reply.nodes)} nodes" if self.play.nodes is not None \
                else human_time(reply.seconds)
            last = f"engine played {square(reply.col, pos.height(reply.col) - 1)}" \
                f" ({spent}) · "
        # after its move's own count, the engine's strength would not fit 80 columns
        strength = "" if last else f" · {engine}"
        return f"{last}your move ({PLAYER_NAMES[1 - self.play.side]}){strength}{hints}"
