"""Play mode: the engine answers the user's moves (``p``), and the hints can hide (``h``);
engine versus engine (``V``): the engine plays both sides, each at its own strength.

The engine moves whenever the last position of the game is viewed, the game is not over
and its side is to move: after the user's move, when play mode starts on its turn, after
a load. Browsing the game, taking back, loading or leaving play mode cancels the move it
is looking for (:class:`EnginePlayer` drops the answer). Take-back (``backspace``, and
``u`` in play mode) removes the engine's reply and the user's move together, so the user
is to move again.

Engine versus engine is the same loop with an engine on each side: each move played
makes the other side's engine think (:meth:`PlayControl.position_changed`), so the moves
appear as a game, one undoable move each. ``V`` pauses and resumes it (paused, the user
may browse, take back or play moves, and the engines go on from the game's end), ``p``
stops it.
"""

from __future__ import annotations

from c4tui.engine.board.position import PLAYER_NAMES, IllegalMoveError, Position, square_name
from c4tui.units import PERFECT, UnitError, parse_strength

from ...report.text import game_over_text, human_count, human_time, move_name
from ..bridge.engine_bridge import BridgeLike
from ..bridge.engine_view import EngineState
from ..bridge.player import PlaySettings, Reply
from ..session.model import GameModel
from ..widgets import PlaySetupScreen, PromptScreen
from ..widgets.play_setup import PlayChoice
from .host import Host


class PlayControl:
    """``settings`` (None: analysis, not play mode) and ``hints`` (False: what the engine
    thinks of the position is hidden)."""

    def __init__(self, model: GameModel, bridge: BridgeLike, host: Host,
                 settings: PlaySettings | None, hints: bool) -> None:
        self.model, self.bridge, self.host = model, bridge, host
        self.settings = settings
        self.hints = hints
        self.last: Reply | None = None  #: the engine's last move, for the status line
        self._announced: int | None = None  # the finished game last announced
        # what the dialog proposes next time: the last choice
        self._strength = PERFECT if settings is None else settings.strength.typed
        self._vary = settings is not None and settings.vary
        #: engine versus engine: the engines of White and Black (None: not that mode)
        self.versus: tuple[PlaySettings, PlaySettings] | None = None
        self.paused = False  #: engine versus engine is paused (``V`` resumes)
        self._versus_text = "10k 100k"  # what the prompt proposes: the last strengths

    # ------------------------------------------------------------------ keys
    def toggle_mode(self) -> None:
        """``p``: the dialog (engine's side and strength), or leave play mode (or engine
        versus engine)."""
        if self.settings is not None or self.versus is not None:
            self.leave()
            return
        if self.bridge.state in (EngineState.NOT_AVAILABLE, EngineState.FAILED):
            self.host.error(f"play: {self.bridge.why_no_engine()}: no engine to play against")
            return

        def done(choice: PlayChoice | None) -> None:
            if choice is not None:
                self.start(*choice)

        # the engine proposes to take the side not to move: the user moves first
        self.host.ask(PlaySetupScreen(1 - self.model.position.to_move, self._strength,
                                      self._vary), done)

    def versus_key(self) -> None:
        """``V``: engine versus engine (a prompt for the two strengths), or, while it
        runs, pause and resume it."""
        end = self.model.full_position()
        if end.is_over:  # nothing to start or to pause: say so, not "paused"
            self.host.error(f"versus: the game is over ({game_over_text(end)})"
                            + (": p leaves" if self.versus is not None else ""))
            return
        if self.versus is not None:
            self.paused = not self.paused
            self.host.say("engine vs engine paused: V resumes, p stops" if self.paused
                          else "engine vs engine resumed")
            self.host.position_changed()
            return
        if self.bridge.state in (EngineState.NOT_AVAILABLE, EngineState.FAILED):
            self.host.error(f"versus: {self.bridge.why_no_engine()}: no engine to play")
            return

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.start_versus(*versus_settings(text))
            except UnitError as exc:
                self.host.error(f"versus: {exc}")
            else:
                self._versus_text = text

        self.host.ask(PromptScreen("Engine vs engine: White's and Black's strengths "
                                   "(levels 1-10, or nodes: 3 7, 10k 1M):",
                                   self._versus_text), done)

    def start_versus(self, white: PlaySettings, black: PlaySettings) -> None:
        """Engine versus engine from the game's end (play mode, if on, ends)."""
        self.bridge.player.cancel()
        self.bridge.player.new_game()  # levels: other moves than the last game's
        self.settings = None
        self.versus = (white, black)
        self.paused = False
        self.last = None
        self._announced = None
        self.model.goto(len(self.model.line))
        self.host.say(f"engine vs engine: White {white.strength_name}, "
                      f"Black {black.strength_name}; V pauses, p stops")
        self.host.position_changed()

    def toggle_hints(self) -> None:
        """``h``: show or hide what the engine thinks of the position."""
        self.hints = not self.hints
        self.host.say("hints shown" if self.hints else "hints hidden: h shows them")
        self.host.state_changed()

    # ------------------------------------------------------------------ the mode
    def start(self, settings: PlaySettings, hide_hints: bool = True) -> None:
        """Enter play mode; if the engine is to move, it starts thinking."""
        self.settings = settings
        self.hints = not hide_hints
        self.last = None
        self._announced = None
        self._strength = settings.strength.typed
        self.bridge.player.new_game()  # a level's moves differ from the last game's
        self._vary = settings.vary
        you = PLAYER_NAMES[1 - settings.side]
        self.host.say(f"play: you are {you}, the engine plays {settings.label}; p leaves")
        self.host.position_changed()

    def leave(self) -> None:
        """Back to analysis: the engine stops looking for a move; the hints show."""
        self.bridge.player.cancel()
        what = "engine vs engine stopped" if self.versus is not None else "play mode off"
        self.settings = self.versus = None
        self.paused = False
        self.hints = True
        self.host.say(what)
        self.host.position_changed()  # the viewed position is analysed again

    def mover(self) -> PlaySettings | None:
        """The engine that plays the side to move (None: the user, or no engine)."""
        side = self.model.position.to_move
        if self.versus is not None:
            return None if self.paused else self.versus[side]
        return self.settings if self.settings is not None and self.settings.side == side \
            else None

    def engine_to_move(self) -> bool:
        """Play mode or engine versus engine, the end of the game is viewed, and it is an
        engine's turn."""
        return (self.mover() is not None and self.model.ply == len(self.model.line)
                and not self.model.position.is_over)

    def position_changed(self) -> bool:
        """The viewed position changed: the engine starts or stops thinking, a finished
        game is announced. True: the engine is thinking here (so the panels' analysis of
        it is not wanted)."""
        if self.settings is None and self.versus is None:
            return False
        pos = self.model.position
        player = self.bridge.player
        mover = self.mover()
        if mover is not None and self.engine_to_move():
            if not player.thinking(pos):
                player.think(pos, mover)
            return True
        player.cancel()
        if pos.is_over and self.model.ply == len(self.model.line) \
                and self._announced != pos.key():
            self._announced = pos.key()
            self.host.say(f"game over: {self._result(pos)}")
        return False

    def refuses(self) -> bool:
        """A move of the user in play mode that is not theirs to make: say why, True."""
        pos = self.model.position
        if self.versus is not None and not self.paused and not pos.is_over:
            self.host.error("versus: the engines are playing (V pauses, p stops)")
            return True
        if self.settings is None or pos.is_over:
            return False  # a finished game says so itself
        if self.bridge.player.thinking():
            self.host.error("play: the engine is thinking (backspace takes your move back)")
            return True
        if pos.to_move == self.settings.side:
            self.host.error(f"play: {PLAYER_NAMES[self.settings.side]} is the engine's side "
                            "(p leaves play mode)")
            return True
        return False

    def take_back(self) -> None:
        """Take back the user's last move and the engine's reply to it (if it came)."""
        assert self.settings is not None
        user = 1 - self.settings.side
        line = self.model.line
        # the mover of ply i is i % 2 (games start from the empty board)
        mine = [i for i in range(len(line)) if i % 2 == user]
        if not mine:
            self.host.error("take back: you have not moved yet")
            return
        self.bridge.player.cancel()
        n = len(line) - mine[-1]
        try:
            self.model.cut(mine[-1])  # the user's move and what follows it, in one edit
        except IllegalMoveError as exc:  # cannot happen: the line had the moves
            self.host.error(str(exc))
        self.model.goto(mine[-1])
        self.last = None
        self.host.say("took back your move" + (" and the engine's reply" if n > 1 else ""))
        self.host.position_changed()

    def accept(self, reply: Reply) -> int | None:
        """The engine's answer: played (its column returned, for the board's cursor) if
        it still answers the game's position; None: dropped, or a failure said."""
        if self.mover() is None or not self.bridge.player.current(reply) \
                or not self.engine_to_move() or self.model.position.key() != reply.key:
            return None
        if reply.col is None:
            self.host.error(f"play: the engine failed: {reply.error}")
            return None
        self.last = reply
        self.model.play(reply.col)
        return reply.col

    # ------------------------------------------------------------------ words
    def _result(self, pos: Position) -> str:
        over = game_over_text(pos) or ""
        if pos.winner is None or self.settings is None:
            return over
        return f"{over}: {'the engine wins' if pos.winner == self.settings.side else 'you win'}"

    def status(self) -> str:
        """The status line's play part ("" outside play mode and engine versus engine)."""
        if self.versus is not None:
            return self._versus_status()
        play = self.settings
        if play is None:
            return ""
        pos = self.model.position
        at_end = self.model.ply == len(self.model.line)
        hints = "" if self.hints else " · hints off (h)"
        engine = f"engine {play.strength_name}"  # (its side: not "your move")
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
        reply = self.last
        if reply is not None and pos.history and pos.history[-1] == reply.col \
                and reply.col is not None:
            spent = f"{human_count(reply.nodes)} nodes" if play.strength.limits is not None \
                else human_time(reply.seconds)
            last = f"engine played {square_name(reply.col, pos.height(reply.col) - 1)}" \
                f" ({spent}) · "
        # after its move's own count, the engine's strength would not fit 80 columns
        strength = "" if last else f" · {engine}"
        return f"{last}your move ({PLAYER_NAMES[1 - play.side]}){strength}{hints}"

    def _versus_status(self) -> str:
        """The status line's part in engine versus engine."""
        assert self.versus is not None
        white, black = self.versus
        pos = self.model.position
        at_end = self.model.ply == len(self.model.line)
        if at_end and pos.is_over:
            return f"game over: {self._result(pos)} · p leaves"
        head = f"White {white.strength_name} vs Black {black.strength_name}"
        if self.paused:
            return f"{head} · paused: V resumes, p stops"
        if not at_end:
            return f"{head} · viewing: end returns"
        thinking = self.bridge.player.thinking(pos)
        who = PLAYER_NAMES[pos.to_move]
        elapsed = f" {human_time(self.bridge.player.elapsed())}" if thinking else ""
        return f"{head} · {who} thinking…{elapsed} · V pauses"


def versus_settings(text: str) -> tuple[PlaySettings, PlaySettings]:
    """White's and Black's engines from two strengths (``10k 100k``, ``perfect 1M``);
    one strength is both sides'. :class:`UnitError` for a word that is not one."""
    words = text.replace(",", " ").split()
    if len(words) not in (1, 2):
        raise UnitError("strengths", repr(text), "not two strengths, White's and Black's "
                        "(levels 1-10, or nodes: 3 7, 10k 100k)")
    strengths = [parse_strength(w, "strength") for w in words]
    return PlaySettings(0, strengths[0]), PlaySettings(1, strengths[-1])
